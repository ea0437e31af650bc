/* libxml2-api-floor.c: what libxml2's two streaming APIs cost on their own, in C,
 * with nothing done per event, to choose the one LibXML2Parser is built on.
 *
 *   cc -O2 Benchmarks/libxml2-api-floor.c $(xml2-config --cflags --libs) -o /tmp/libxml2-api-floor
 *   /usr/bin/time -f '%e s %M KB' /tmp/libxml2-api-floor sax    people.xml
 *   /usr/bin/time -f '%e s %M KB' /tmp/libxml2-api-floor reader people.xml
 *
 * sax:    the SAX2 push parser (xmlCreatePushParserCtxt + xmlParseChunk in 256 KiB
 *         chunks, XML_PARSE_NONET), empty startElementNs/endElementNs/characters.
 * reader: xmlTextReader (xmlReaderForFile), reading each element's local name and
 *         namespace URI, every attribute value and every text node's value: the
 *         least an event model on top of it would need.
 */
#include <libxml/parser.h>
#include <libxml/xmlreader.h>
#include <stdio.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
static long n;
static void se(void *c, const xmlChar *l, const xmlChar *p, const xmlChar *u, int nn, const xmlChar **ns, int na, int nd, const xmlChar **a) { n++; }
static void ee(void *c, const xmlChar *l, const xmlChar *p, const xmlChar *u) {}
static void ch(void *c, const xmlChar *t, int len) {}
int main(int argc, char **argv) {
  if (!strcmp(argv[1], "sax")) {
    xmlSAXHandler h; memset(&h, 0, sizeof h); xmlSAXVersion(&h, 2);
    h.startElementNs = se; h.endElementNs = ee; h.characters = ch; h.cdataBlock = ch; h.startElement = NULL; h.endElement = NULL;
    xmlParserCtxtPtr ctxt = xmlCreatePushParserCtxt(&h, NULL, NULL, 0, NULL);
    xmlCtxtUseOptions(ctxt, XML_PARSE_NONET);
    int fd = open(argv[2], O_RDONLY); static char buf[256 << 10]; ssize_t r;
    while ((r = read(fd, buf, sizeof buf)) > 0) xmlParseChunk(ctxt, buf, r, 0);
    xmlParseChunk(ctxt, NULL, 0, 1);
    printf("sax elements %ld wf %d\n", n, ctxt->wellFormed);
  } else {
    xmlTextReaderPtr rd = xmlReaderForFile(argv[2], NULL, XML_PARSE_NONET);
    long bytes = 0;
    while (xmlTextReaderRead(rd) == 1) {
      int t = xmlTextReaderNodeType(rd);
      if (t == 1) { n++; const xmlChar *l = xmlTextReaderConstLocalName(rd); const xmlChar *u = xmlTextReaderConstNamespaceUri(rd); bytes += l[0] + (u ? 1 : 0);
        while (xmlTextReaderMoveToNextAttribute(rd) == 1) { bytes += xmlStrlen(xmlTextReaderConstValue(rd)); } }
      else if (t == 3 || t == 4 || t == 14) { bytes += xmlStrlen(xmlTextReaderConstValue(rd)); }
    }
    printf("reader elements %ld %ld\n", n, bytes);
  }
  return 0;
}
