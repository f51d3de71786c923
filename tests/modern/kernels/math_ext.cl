// Math builtins some platforms compile to one instruction the docs do not have: `tanh` on
// Xe3P (cri, nvl-p) becomes TANH (opcode 0x96), and SPV_INTEL_sigmoid's sigmoid SIGM (0x97);
// elsewhere a sequence of exp and div.

__kernel void hyperbolic(__global const float *a, __global float *out) {
    size_t i = get_global_id(0);
    float x = a[i];
    out[2 * i + 0] = tanh(x);
    out[2 * i + 1] = tanh(0.5f * x) * 2.0f;
}

// SPV_INTEL_sigmoid, which Intel's compiler provides to OpenCL C as this overloaded function.
float __attribute__((overloadable)) __spirv_FSigmoidINTEL(float x);

__kernel void sigmoid(__global const float *a, __global float *out) {
    size_t i = get_global_id(0);
    float x = a[i];
    out[2 * i + 0] = __spirv_FSigmoidINTEL(x);
    out[2 * i + 1] = __spirv_FSigmoidINTEL(-2.0f * x);
}
