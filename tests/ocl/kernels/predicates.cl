// Comparisons feeding selects, any/all on vectors, and predicated stores.
kernel void predicates(global int4 *v, global int *out) {
    size_t i = get_global_id(0);
    int4 x = v[i];
    int4 m = x > (int4)(0, 1, 2, 3);
    int r = any(m) ? 1 : 0;
    r += all(x != (int4)(0)) ? 2 : 0;
    if (x.x < x.y)
        out[i] = r;
    else if (x.z >= x.w)
        out[i] = -r;
}
