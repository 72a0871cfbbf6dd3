// The libxml2 shim is header-only (include/clibxml2.h); SwiftPM needs a source file in a C target.
#include "clibxml2.h"
