// Subgroup builtins: reductions, scans, shuffles, broadcasts, block reads (cl_khr_subgroups,
// cl_intel_subgroups).
kernel void sg_math(global const uint *in, global uint *out) {
    size_t i = get_global_id(0);
    uint x = in[i];
    uint r = sub_group_reduce_add(x) ^ sub_group_reduce_min(x) ^ sub_group_reduce_max(x);
    r ^= sub_group_scan_exclusive_add(x) ^ sub_group_scan_inclusive_max(x);
    r ^= sub_group_broadcast(x, 1) + get_sub_group_local_id() + get_sub_group_size();
    r ^= intel_sub_group_shuffle(x, (get_sub_group_local_id() + 3) % get_max_sub_group_size());
    r ^= intel_sub_group_shuffle_down(x, x + 1u, 2u) ^ intel_sub_group_shuffle_xor(x, 5u);
    out[i] = r + sub_group_all(x > 7u) + sub_group_any(x == 3u);
}

kernel void sg_block(global uint *in, global uint *out) {
    uint v = intel_sub_group_block_read((const global uint *)in + get_group_id(0) * 64);
    uint2 w = intel_sub_group_block_read2((const global uint *)in);
    intel_sub_group_block_write(out + get_group_id(0) * 64, v + w.x + w.y);
}
