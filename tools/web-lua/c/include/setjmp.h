/* setjmp and longjmp for WebAssembly, lowered by clang's -mllvm -wasm-enable-sjlj onto the
 * exception-handling instructions. The compiler rewrites every call of these two functions;
 * what is left is a jmp_buf big enough for the runtime's record (see sjlj.c). */
#ifndef JENGINE_WEB_SETJMP_H
#define JENGINE_WEB_SETJMP_H

typedef struct { _Alignas(8) unsigned char bytes[32]; } jmp_buf[1];

int setjmp(jmp_buf env) __attribute__((returns_twice));
_Noreturn void longjmp(jmp_buf env, int value);

#endif
