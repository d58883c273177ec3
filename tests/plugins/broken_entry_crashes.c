/*
 * broken_entry_crashes.c - test plugin (broken): its entry function crashes
 * (a null pointer write). Kept in a folder of its own (test_plugins/crash):
 * only `pivot plugins --probe` may load it, which must report the crash and
 * survive it. Loading it in a test process would end that process.
 */
#include <pivot/plugin.h>

PIVOT_PLUGIN_ENTRY
{
    /* DEFECT: writes through a null pointer. volatile so that the compiler
       keeps the fault instead of proving it undefined and removing it. */
    volatile int* volatile nowhere = 0;
    (void)host_abi_major;
    (void)host_abi_minor;
    *nowhere = 1;
    return 0;
}
