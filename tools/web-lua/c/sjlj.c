/* The three functions clang's setjmp/longjmp lowering calls (LLVM 19 names).
 *
 * A setjmp records in its jmp_buf which call of the function it is in (an address the
 * compiler makes unique per invocation) and a label; a longjmp throws the C_LONGJMP exception
 * carrying the buffer and the value; every function that called setjmp catches it and asks
 * __wasm_setjmp_test whether the buffer is one of its own, resuming at the label if so and
 * throwing on otherwise. */
#include <stdint.h>

struct longjmp_args {
    void *env;
    int value;
};

struct record {
    void *invocation;
    uint32_t label;
    struct longjmp_args args;
};

_Static_assert(sizeof(struct record) <= 32, "the record must fit in a jmp_buf");

void __wasm_setjmp(void *env, uint32_t label, void *invocation) {
    struct record *r = env;
    r->invocation = invocation;
    r->label = label;
}

uint32_t __wasm_setjmp_test(void *env, void *invocation) {
    struct record *r = env;
    return r->invocation == invocation ? r->label : 0;
}

void __wasm_longjmp(void *env, int value) {
    struct record *r = env;
    r->args.env = env;
    r->args.value = value == 0 ? 1 : value;
    __builtin_wasm_throw(1, &r->args);
}
