#include <libxml/xmlversion.h>
/* Debian's libxml2 is built with ICU, so encoding.h would include the system's
   <unicode/ucnv.h>, whose UErrorCode clashes with the ICU Foundation bundles
   (_FoundationICU) in any module that also imports Foundation. Nothing here uses
   the ICU fields (they sit behind pointers in xmlCharEncodingHandler), so the
   headers are read as if ICU were off; the library itself is unchanged. */
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>
#include <libxml/xmlerror.h>
