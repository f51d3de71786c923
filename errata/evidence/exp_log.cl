// EXP and LOG are base 2 (errata/EXP-semantics-base-2.patch, LOG-...):
// OpenCL's exp2/log2 compile to one vISA exp/log; exp/log scale around it.
kernel void exp_log(global float *out, global const float *in) {
    size_t i = get_global_id(0);
    float x = in[i];
    out[4 * i + 0] = exp2(x);
    out[4 * i + 1] = log2(x);
    out[4 * i + 2] = exp(x);
    out[4 * i + 3] = log(x);
}
