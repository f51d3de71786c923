// ROL on signed types (errata/ROL-semantics-logical-rotate.patch): OpenCL's rotate()
// on char, short, int, uint and long compiles to one vISA rol of operands of that width and signedness.
__kernel void rot_int(__global int *a, __global const int *b) {
    size_t i = get_global_id(0);
    a[i] = rotate(a[i], b[i]);
}
__kernel void rot_uint(__global uint *a, __global const uint *b) {
    size_t i = get_global_id(0);
    a[i] = rotate(a[i], b[i]);
}
__kernel void rot_short(__global short *a, __global const short *b) {
    size_t i = get_global_id(0);
    a[i] = rotate(a[i], b[i]);
}
__kernel void rot_long(__global long *a, __global const long *b) {
    size_t i = get_global_id(0);
    a[i] = rotate(a[i], b[i]);
}
__kernel void rot_char(__global char *a, __global const char *b) {
    size_t i = get_global_id(0);
    a[i] = rotate(a[i], b[i]);
}
