// A fixed-size local array, a local histogram and a work-group fence.
kernel void local_array(global const uint *in, global uint *hist) {
    local uint bins[64];
    size_t lid = get_local_id(0);
    if (lid < 64)
        bins[lid] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_inc(&bins[in[get_global_id(0)] & 63]);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < 64)
        atomic_add(&hist[lid], bins[lid]);
}
