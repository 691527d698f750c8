// The operations are `static inline` in the header and compiled into their Swift callers; this file only gives the
// target a source, as the package manager requires.
#include "CEventBusAtomics.h"
