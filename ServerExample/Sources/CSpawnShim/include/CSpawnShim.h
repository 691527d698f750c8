#ifndef C_SPAWN_SHIM_H
#define C_SPAWN_SHIM_H

#include <spawn.h>

// Adds to `actions` the closing, in the child, of every descriptor from `lowest` up: the check starts PostgreSQL's
// control commands this way, so that they inherit none of its client sockets. glibc declares
// posix_spawn_file_actions_addclosefrom_np only with _GNU_SOURCE, which Swift's Glibc module does not set.
// Returns 0, or an errno value (ENOSYS where the C library has no such action).
int c_spawn_shim_add_close_from(posix_spawn_file_actions_t *actions, int lowest);

#endif
