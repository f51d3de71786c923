// Function calls the compiler keeps (noinline), private arrays indexed at run time, structs,
// constant-address-space arguments.

__attribute__((noinline)) int mix(int x, int y) {
    return (x * 31) ^ (y >> 2);
}

__attribute__((noinline)) uint count_steps(uint x) {
    uint n = 0;
    while (x > 1u && n < 64u) {
        x = (x & 1u) ? x + (x >> 1) + 1u : x >> 1;
        n++;
    }
    return n;
}

__kernel void call_noinline(__global const int *a, __global const int *b, __global int *out) {
    size_t i = get_global_id(0);
    out[i] = mix(a[i], b[i]) + mix(b[i], 5);
}

__kernel void call_divergent(__global const uint *a, __global uint *out) {
    size_t i = get_global_id(0);
    uint x = a[i];
    out[i] = (x & 1u) ? count_steps(x & 0xffffu) : x >> 3;
}

__kernel void private_array(__global const int *a, __global int *out) {
    size_t i = get_global_id(0);
    int t[8];
    for (int k = 0; k < 8; k++) t[k] = a[i] * (k + 1) - k;
    int j = a[i] & 7;
    t[j] += 100;
    out[i] = t[(j + 3) & 7] + t[j];
}

typedef struct {
    int id;
    float weight; // copied as it is: its bytes are random, NaN and denormals included
    short tag;
    uchar flags;
    uchar spare;
} item_t;

__kernel void struct_fields(__global const item_t *in, __global item_t *out) {
    size_t i = get_global_id(0);
    item_t v = in[i];
    v.id = (int)((uint)v.id * 2u + (uint)i); // unsigned: the bytes are random, signed overflow is undefined
    v.tag = (short)(v.tag ^ 0x0f0f);
    v.flags = (uchar)(v.flags | 0x80u);
    v.spare = (uchar)(v.spare + v.flags);
    out[i] = v;
}

__kernel void constant_arg(__constant int *table, __global const uint *a, __global int *out) {
    size_t i = get_global_id(0);
    out[i] = table[a[i] & 15u] * 3 + table[(a[i] >> 4) & 15u];
}

__constant int program_scope_table[8] = { 3, 1, 4, 1, 5, 9, 2, 6 };

__kernel void constant_program_scope(__global const uint *a, __global int *out) {
    size_t i = get_global_id(0);
    out[i] = program_scope_table[a[i] & 7u] - (int)i;
}

__kernel void pointer_select(__global int *a, __global int *b, __global int *out) {
    size_t i = get_global_id(0);
    __global int *p = (i & 1) ? a : b;
    out[i] = p[i] * 2 + p[i ^ 1];
    if (i & 1) p[i] += 1;
}
