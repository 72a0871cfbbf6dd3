#ifndef CLIBXML2_SHIM_H
#define CLIBXML2_SHIM_H
#include <libxml/xmlversion.h>
// Debian builds libxml2 with ICU, whose headers clash with the ICU that Foundation ships. Only
// libxml2's encoding-handler struct uses ICU types, and Swift reaches it only through pointers,
// so hiding ICU here changes no layout Swift reads.
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>
#endif
