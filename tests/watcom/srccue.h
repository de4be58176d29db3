/* srccue.h: code in a header, for srccue.c: its lines reach Open
 * Watcom's own debug format through the module's cue table
 * (src/symbols/watdbg.rs). The test stops on the line marked
 * LINE-IN-HEADER.
 */
static int twice(int v)
{
    return v * 2;                       /* LINE-IN-HEADER */
}
