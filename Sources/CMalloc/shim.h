// glibc's malloc tuning (mallopt), which Swift's Glibc module leaves out; the executable sets
// how large a block must be to be mapped rather than kept in malloc's arenas.
#include <malloc.h>
