// Kernels with the faults `visa run --check` reports (family/tests/run_check.rs runs each
// with the sizes its comment gives and checks the reports' fields), and one without.

// --global 16 --local 16, `in` of 16 ints: work-item 15 reads in[16], one past the end.
__kernel void oob_read(__global const int *in, __global int *out) {
    int i = get_global_id(0);
    out[i] = in[i + 1];
}

// --global 16 --local 16 --scalar i32:16369: work-item 15 writes s[16384], the int just past
// the 64 KiB of SLM the work-group has (the machine cannot tell where one `local` array ends
// and the next begins: the object file does not say).
__kernel void slm_overflow(__global int *out, int base) {
    __local int s[16];
    int l = get_local_id(0);
    s[l + base] = l;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = s[l];
}

// --global 16 --local 16: only work-items 0-2 reach the barrier.
__kernel void barrier_divergent(__global int *out) {
    int l = get_local_id(0);
    if (l < 3) {
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[get_global_id(0)] = l;
}

// --global 16 --local 16: work-item l reads s[l + 1], which work-item l + 1 wrote, with no
// barrier between.
__kernel void slm_race(__global int *out) {
    __local int s[16];
    int l = get_local_id(0);
    s[l] = l;
    out[get_global_id(0)] = s[(l + 1) & 15];
}

// --global 16 --local 16: the same on a global buffer `buf` of 16 ints.
__kernel void global_race(__global int *buf, __global int *out) {
    int i = get_global_id(0);
    buf[i] = i;
    out[i] = buf[(i + 1) & 15];
}

// --global 16 --local 16: slm_race with the barrier; nothing to report.
__kernel void slm_shift(__global int *out) {
    __local int s[16];
    int l = get_local_id(0);
    s[l] = l;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = s[(l + 1) & 15];
}
