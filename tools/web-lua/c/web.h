/* Included before every Lua source file: what the web build sets that luaconf.h leaves to
 * the platform. */
#ifndef JENGINE_WEB_H
#define JENGINE_WEB_H

#include <stddef.h>
#include <stdio.h>

/* No <signal.h> on this libc: Lua only needs an integer it can set from a hook. */
#define l_signalT int

/* Lua's own output (print, warnings, error reports) goes to the Rust side's sink rather than
 * through stdio. */
void jengine_web_lua_write(int stream, const char *text, size_t len);
#define lua_writestring(s, l) jengine_web_lua_write(1, (s), (l))
#define lua_writeline() (jengine_web_lua_write(1, "\n", 1))
#define lua_writestringerror(s, p) \
    do { \
        char jengine_line[512]; \
        int jengine_n = snprintf(jengine_line, sizeof jengine_line, (s), (p)); \
        if (jengine_n > 0) \
            jengine_web_lua_write(2, jengine_line, \
                (size_t)jengine_n < sizeof jengine_line ? (size_t)jengine_n : sizeof jengine_line - 1); \
    } while (0)

#endif
