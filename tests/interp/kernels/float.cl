// Single-precision float. FP_CONTRACT OFF: neither compiler may fuse a*b+c into one rounding
// (Intel honours the pragma; without it Intel fuses to mad and pocl's LLVM may or may not),
// so + - * and fma are correctly rounded on both sides and compared bit for bit.
#pragma OPENCL FP_CONTRACT OFF

__kernel void f32_arith(__global const float *a, __global const float *b, __global float *out) {
    size_t i = get_global_id(0);
    float x = a[i], y = b[i];
    out[4 * i + 0] = x + y;
    out[4 * i + 1] = x - y;
    out[4 * i + 2] = x * y;
    out[4 * i + 3] = x * y + x;
}

__kernel void f32_fma(__global const float *a, __global const float *b, __global const float *c, __global float *out) {
    size_t i = get_global_id(0);
    out[2 * i + 0] = fma(a[i], b[i], c[i]);
    out[2 * i + 1] = fma(-a[i], c[i], b[i]);
}

__kernel void f32_minmax(__global const float *a, __global const float *b, __global float *out) {
    size_t i = get_global_id(0);
    float x = a[i], y = b[i];
    out[6 * i + 0] = fmin(x, y);
    out[6 * i + 1] = fmax(x, y);
    out[6 * i + 2] = fabs(x);
    out[6 * i + 3] = -y;
    out[6 * i + 4] = copysign(x, y);
    out[6 * i + 5] = clamp(x, -10.0f, 10.0f);
}

__kernel void f32_round(__global const float *a, __global float *out) {
    size_t i = get_global_id(0);
    float x = a[i];
    out[5 * i + 0] = floor(x);
    out[5 * i + 1] = ceil(x);
    out[5 * i + 2] = trunc(x);
    out[5 * i + 3] = rint(x);
    out[5 * i + 4] = x - floor(x);
}

__kernel void f32_compare(__global const float *a, __global const float *b, __global int *out) {
    size_t i = get_global_id(0);
    float x = a[i], y = b[i];
    out[4 * i + 0] = x < y;
    out[4 * i + 1] = (x >= y) + 2 * (x == y) + 4 * (x != y);
    out[4 * i + 2] = isgreater(x, y) - islessequal(x, 0.5f);
    out[4 * i + 3] = signbit(x) ? -1 : 1;
}

__kernel void f32_select(__global const float *a, __global const float *b, __global float *out) {
    size_t i = get_global_id(0);
    float x = a[i], y = b[i];
    out[3 * i + 0] = x < y ? x * 2.0f : y - 1.0f;
    out[3 * i + 1] = select(x, y, (int)(x > 0.0f));
    out[3 * i + 2] = step(y, x) + fabs(x) > 3.0f ? 1.5f : -2.25f;
}

__kernel void f32_div(__global const float *a, __global const float *b, __global float *out) {
    size_t i = get_global_id(0);
    out[2 * i + 0] = a[i] / b[i];
    out[2 * i + 1] = 1.0f / b[i];
}

__kernel void f32_sqrt(__global const float *a, __global float *out) {
    size_t i = get_global_id(0);
    float x = fabs(a[i]);
    out[2 * i + 0] = sqrt(x);
    out[2 * i + 1] = rsqrt(x + 1.0f);
}

__kernel void f32_exp_log(__global const float *a, __global float *out) {
    size_t i = get_global_id(0);
    float x = a[i];
    out[4 * i + 0] = exp(x);
    out[4 * i + 1] = exp2(x);
    out[4 * i + 2] = log(fabs(x) + 0.5f);
    out[4 * i + 3] = log2(fabs(x) + 0.5f);
}

__kernel void f32_trig(__global const float *a, __global float *out) {
    size_t i = get_global_id(0);
    float x = a[i];
    out[2 * i + 0] = sin(x);
    out[2 * i + 1] = cos(x);
}

// On Xe3P (cri, nvl-p) Intel's compiler writes `tanh` as one instruction (TANH, opcode 0x96).
__kernel void f32_tanh(__global const float *a, __global float *out) {
    size_t i = get_global_id(0);
    out[i] = tanh(a[i]);
}

// The sigmoid of SPV_INTEL_sigmoid, 1 / (1 + e^-x): on Xe3P (cri, nvl-p) Intel's current compiler
// writes it as one instruction (SIGM, opcode 0x97). pocl and Intel's 2022 compiler have no
// `__spirv_FSigmoidINTEL`, so they compute the formula; of the three, only the current compiler
// defines both cl_intel_subgroups and cl_khr_integer_dot_product (measured with each).
#if defined(cl_intel_subgroups) && defined(cl_khr_integer_dot_product)
float __attribute__((overloadable)) __spirv_FSigmoidINTEL(float x);
#define SIGMOID(x) __spirv_FSigmoidINTEL(x)
#else
#define SIGMOID(x) (1.0f / (1.0f + exp(-(x))))
#endif
__kernel void f32_sigm(__global const float *a, __global float *out) {
    size_t i = get_global_id(0);
    out[i] = SIGMOID(a[i]);
}

__kernel void f32_pow(__global const float *a, __global const float *b, __global float *out) {
    size_t i = get_global_id(0);
    out[i] = pow(fabs(a[i]) + 0.5f, b[i]);
}

__kernel void f32_poly(__global const float *a, __global float *out, float c0, float c1, float c2) {
    size_t i = get_global_id(0);
    float x = a[i];
    float acc = c2;
    acc = acc * x;
    acc = acc + c1;
    acc = acc * x;
    acc = acc + c0;
    out[i] = acc;
}
