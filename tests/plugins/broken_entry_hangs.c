/*
 * broken_entry_hangs.c - test plugin (broken): its entry function never
 * returns. Kept in test_plugins/crash with the crashing one: only
 * `pivot plugins --probe`, which loads in a child process and gives up after
 * its timeout, may load it.
 */
#define _POSIX_C_SOURCE 199309L /* nanosleep in strict C99 */

#include <time.h>

#include <pivot/plugin.h>

PIVOT_PLUGIN_ENTRY
{
    /* DEFECT: waits for ever (sleeping, so a test run does not burn a core). */
    (void)host_abi_major;
    (void)host_abi_minor;
    for (;;) {
        struct timespec pause = {1, 0};
        nanosleep(&pause, 0);
    }
    return 0;
}
