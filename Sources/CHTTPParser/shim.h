// Shims for http-parser 2.9 (Debian's libhttp-parser-dev) APIs that Swift cannot import directly.
// Each wraps one macro, with a prefix, and holds no logic.
#ifndef HERALD_CHTTPPARSER_SHIM_H
#define HERALD_CHTTPPARSER_SHIM_H

#include <http_parser.h>

// HTTP_PARSER_ERRNO is a function-like macro over a bitfield.
static inline enum http_errno herald_http_parser_errno(const http_parser *parser) {
    return HTTP_PARSER_ERRNO(parser);
}

// F_CHUNKED is in an anonymous enum of flags read from a bitfield.
static inline int herald_http_parser_is_chunked(const http_parser *parser) {
    return (parser->flags & F_CHUNKED) != 0;
}

#endif
