// Xe3P's integer builtins of Intel's compiler (IGC's `__builtin_IB_*` intrinsics, declared here as
// its built-in library declares them): LFSR (opcode 0x98) and SHFL_IDX4 (0x95).
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
