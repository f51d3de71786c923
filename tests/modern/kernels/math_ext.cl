// Math builtins some platforms compile to one instruction the docs do not have: `tanh` on
// Xe3P (cri, nvl-p) becomes TANH (opcode 0x96); elsewhere a sequence of exp and div.

__kernel void hyperbolic(__global const float *a, __global float *out) {
    size_t i = get_global_id(0);
    float x = a[i];
    out[2 * i + 0] = tanh(x);
    out[2 * i + 1] = tanh(0.5f * x) * 2.0f;
}
