#include <libxml/xmlversion.h>
/* Debian's libxml2 is built with ICU, so encoding.h would include the system's
   <unicode/ucnv.h>, whose UErrorCode clashes with the ICU Foundation bundles
   (_FoundationICU) in any module that also imports Foundation. Nothing here uses
   the ICU fields (they sit behind pointers in xmlCharEncodingHandler), so the
   headers are read as if ICU were off; the library itself is unchanged. */
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/HTMLparser.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>
#include <libxml/xmlerror.h>
#include <libxml/entities.h>
#include <libxml/xmlreader.h>
#include <libxml/xmlschemas.h>
#include <libxml/relaxng.h>

/* libxml2 reports a few things (IO failures without a parser, unimplemented
   corners of the schema validator) through its generic error function, which is
   variadic and so cannot be written in Swift, and prints them on stderr by
   default. These helpers route every report of the calling thread to one
   structured handler for the length of a call, then put back what was there. */
typedef struct {
    xmlGenericErrorFunc generic;
    void *genericContext;
    xmlStructuredErrorFunc structured;
    void *structuredContext;
} ingest_xml_error_handlers;

static void ingest_xml_ignore_generic_error(void *context, const char *message, ...) {
    (void)context;
    (void)message;
}

static inline ingest_xml_error_handlers ingest_xml_capture_errors(xmlStructuredErrorFunc handler, void *context) {
    ingest_xml_error_handlers saved = {
        xmlGenericError, xmlGenericErrorContext, xmlStructuredError, xmlStructuredErrorContext
    };
    xmlSetGenericErrorFunc(NULL, ingest_xml_ignore_generic_error);
    xmlSetStructuredErrorFunc(context, handler);
    return saved;
}

static inline void ingest_xml_restore_errors(ingest_xml_error_handlers saved) {
    xmlSetGenericErrorFunc(saved.genericContext, saved.generic);
    xmlSetStructuredErrorFunc(saved.structuredContext, saved.structured);
}

/* xmlFree is a global function pointer, which Swift 6 will not read from
   nonisolated code; this calls it. */
static inline void ingest_xml_free(void *pointer) {
    xmlFree(pointer);
}
