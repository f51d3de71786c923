// Sub-groups: reductions, scans, broadcast, and Intel's shuffles.
#pragma OPENCL EXTENSION cl_intel_subgroups : enable
kernel void subgroups(global int *a, global float *f) {
    size_t i = get_global_id(0);
    int x = a[i];
    int sum = sub_group_reduce_add(x);
    int pre = sub_group_scan_inclusive_max(x);
    int first = sub_group_broadcast(x, 0);
    float g = intel_sub_group_shuffle(f[i], (get_sub_group_local_id() + 1) % get_max_sub_group_size());
    a[i] = sum + pre + first + (int)get_sub_group_id();
    f[i] = g + intel_sub_group_shuffle_down(f[i], f[i], 1);
}
