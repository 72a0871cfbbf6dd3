// zlib's declarations only (z_stream, the constants): the library itself is loaded with dlopen
// when a compressed file is first read, so that no other run of ecbrates loads it.
#include <zlib.h>
