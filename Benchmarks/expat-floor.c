/* expat-floor.c: what Expat costs on its own when driven as ingest's Expat parser
 * drives it, in C, with nothing done per event: the floor under `--dry-run`, beside
 * xmlwf (the same Expat asked for nothing).
 *
 *   cc -O2 Benchmarks/expat-floor.c -lexpat -o /tmp/expat-floor
 *   /usr/bin/time -f '%e s %M KB' /tmp/expat-floor 3 people.xml
 *
 * Every level reads the file in 256 KiB pieces into Expat's own buffer
 * (XML_GetBuffer + XML_ParseBuffer), with namespace triplets and parameter entity
 * parsing as ExpatPushParser asks, and adds to the one before it:
 *   0  no handlers (xmlwf's work, read rather than mapped);
 *   1  empty start, end and character data handlers;
 *   2  the length of every name and attribute value (strlen), as events carry them;
 *   3  the line, column and byte offset of every start and end tag, and the byte
 *      offset of every piece of text, as ingest's events carry them.
 * It prints the elements seen and a checksum of what it read, so nothing is
 * optimised away.
 */
#include <expat.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static XML_Parser parser;
static int level;
static long elements;
static unsigned long checksum;

static void position(void) {
    checksum += XML_GetCurrentLineNumber(parser) + XML_GetCurrentColumnNumber(parser)
        + (unsigned long)XML_GetCurrentByteIndex(parser);
}

static void start(void *data, const XML_Char *name, const XML_Char **attributes) {
    (void)data;
    elements++;
    if (level >= 2) {
        checksum += strlen(name);
        for (int i = 0; attributes[i]; i += 2) checksum += strlen(attributes[i]) + strlen(attributes[i + 1]);
    }
    if (level >= 3) position();
}

static void end(void *data, const XML_Char *name) {
    (void)data, (void)name;
    if (level >= 3) position();
}

static void text(void *data, const XML_Char *s, int length) {
    (void)data, (void)s, (void)length;
    if (level >= 3) checksum += (unsigned long)XML_GetCurrentByteIndex(parser);
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: expat-floor 0|1|2|3 FILE\n");
        return 64;
    }
    level = atoi(argv[1]);
    int fd = open(argv[2], O_RDONLY);
    if (fd < 0) {
        perror(argv[2]);
        return 66;
    }
    parser = XML_ParserCreateNS(NULL, '\x01');
    XML_SetReturnNSTriplet(parser, 1);
    XML_SetParamEntityParsing(parser, XML_PARAM_ENTITY_PARSING_UNLESS_STANDALONE);
    if (level >= 1) {
        XML_SetElementHandler(parser, start, end);
        XML_SetCharacterDataHandler(parser, text);
    }
    const int piece = 256 << 10;
    for (;;) {
        void *buffer = XML_GetBuffer(parser, piece);
        if (!buffer) {
            fprintf(stderr, "%s: out of memory for a %d-byte parse buffer\n", argv[2], piece);
            return 74;
        }
        ssize_t count = read(fd, buffer, piece);
        if (count < 0) {
            perror(argv[2]);
            return 74;
        }
        if (XML_ParseBuffer(parser, (int)count, count == 0) == XML_STATUS_ERROR) {
            fprintf(stderr, "%s:%lu: %s\n", argv[2], XML_GetCurrentLineNumber(parser),
                XML_ErrorString(XML_GetErrorCode(parser)));
            return 65;
        }
        if (count == 0) break;
    }
    printf("%ld elements, checksum %lu\n", elements, checksum);
    XML_ParserFree(parser);
    return 0;
}
