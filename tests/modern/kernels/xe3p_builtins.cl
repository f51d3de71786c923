// Xe3P's integer builtins of Intel's compiler (IGC's `__builtin_IB_*` intrinsics, declared here as
// its built-in library declares them): LFSR (opcode 0x98), SHFL_IDX4 (0x95), BDPAS (0x99), DNSCL
// (0x9A) and DPAS with hf8 precisions.
uint __builtin_IB_lfsr_b32(uint seed, uint polynomial) __attribute__((const));
uint __builtin_IB_lfsr_b16v2(uint seed, uint polynomial) __attribute__((const));
uint __builtin_IB_lfsr_b8v4(uint seed, uint polynomial) __attribute__((const));
uchar __builtin_IB_shfl_idx4_to_fp8(uint16 lut, char source) __attribute__((const));

__kernel void lfsr(__global const uint *seed, __global uint *out) {
    size_t i = get_global_id(0);
    uint s = seed[i];
    out[3 * i + 0] = __builtin_IB_lfsr_b32(s, 0x8e8e8e8eu);
    out[3 * i + 1] = __builtin_IB_lfsr_b16v2(s, 0x8e8e8e8eu);
    out[3 * i + 2] = __builtin_IB_lfsr_b8v4(s, seed[i + 1]);
}

__kernel void shfl_idx4(__global const uint *lut, __global const char *index, __global uchar *out) {
    size_t i = get_global_id(0);
    out[i] = __builtin_IB_shfl_idx4_to_fp8(vload16(0, lut), index[i]);
}

float8 __builtin_IB_sub_group16_bdpas_f_f_bf_bf_8_8(float8 acc, short8 a, int8 b, uchar scale_a, uchar scale_b) __attribute__((const));
float8 __builtin_IB_sub_group16_bdpas_f_f_hf8_hf8_8_8(float8 acc, short8 a, int8 b, uchar scale_a, uchar scale_b) __attribute__((const));

__attribute__((intel_reqd_sub_group_size(16)))
__kernel void bdpas(__global const float *acc, __global const short *a, __global const int *b,
                    __global const uchar *scale, __global float *out) {
    size_t i = get_global_id(0);
    float8 c = vload8(i, acc);
    c = __builtin_IB_sub_group16_bdpas_f_f_bf_bf_8_8(c, vload8(i, a), vload8(i, b), scale[0], scale[1]);
    c = __builtin_IB_sub_group16_bdpas_f_f_hf8_hf8_8_8(c, vload8(i, a), vload8(i, b), scale[2], scale[3]);
    vstore8(c, i, out);
}

float __builtin_IB_sub_group16_fdpas_f_f_hf8_hf8_8_1(float acc, short a, int8 b) __attribute__((const));

__attribute__((intel_reqd_sub_group_size(16)))
__kernel void fdpas_hf8(__global const float *acc, __global const short *a, __global const int *b,
                        __global float *out) {
    size_t i = get_global_id(0);
    out[i] = __builtin_IB_sub_group16_fdpas_f_f_hf8_hf8_8_1(acc[i], a[i], vload8(i, b));
}

enum DNSCL_CONVERT_TO_TYPE { DNSCL_CONVERT_TO_E2M1 = 1, DNSCL_CONVERT_TO_INT4 = 2 };
uint __builtin_IB_dnscl_bf16(uint, uint, enum DNSCL_CONVERT_TO_TYPE convert_to, uint mode);
uint __builtin_IB_dnscl_hf16_srnd(uint, uint, uint, enum DNSCL_CONVERT_TO_TYPE convert_to, uint mode);

__kernel void dnscl(__global const uint *a, __global uint *out) {
    size_t i = get_global_id(0);
    out[2 * i + 0] = __builtin_IB_dnscl_bf16(a[i], a[i + 1], DNSCL_CONVERT_TO_E2M1, 0);
    out[2 * i + 1] = __builtin_IB_dnscl_hf16_srnd(a[i], a[i + 1], a[i + 2], DNSCL_CONVERT_TO_INT4, 2);
}
