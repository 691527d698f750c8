// Counts the blocks handed to the main dispatch queue, for the main-actor scenarios of `Bench`.
#ifndef C_MAIN_QUEUE_BLOCKS_H
#define C_MAIN_QUEUE_BLOCKS_H

/// Blocks and functions handed to the main queue through libdispatch's enqueue functions since the process started,
/// or -1 where this build does not count them (not Linux, or built with a sanitizer).
long c_main_queue_blocks_enqueued(void);

#endif
