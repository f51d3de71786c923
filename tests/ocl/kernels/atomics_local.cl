// Local atomics with their results used, and a float atomic exchange.
kernel void atomics_local(global int *out, global float *f) {
    local int counter;
    local float last;
    if (get_local_id(0) == 0) {
        counter = 0;
        last = 0.0f;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    int slot = atomic_inc(&counter);
    int before = atomic_dec(&counter);
    atomic_xchg(&last, f[get_global_id(0)]);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = slot + before + counter;
    f[get_global_id(0)] = last;
}
