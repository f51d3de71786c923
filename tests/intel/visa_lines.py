"""vISA text lines for every documented instruction, written from a table (not typed one by one).

`sources(docs_dir)` returns {doc name: [line, ...]}: instruction lines in Intel's syntax (GenX_IR
12504.6's parser and printer; see ../shared/notes/visa-text-syntax.md). The ALU-like docs (an
exec size, a predicate, vector operands) are expanded from the doc itself: each `Supported Types`
type, each exec size and execution mask the doc enumerates, `.sat` where the doc allows it, each
source modifier class the doc names, each operand class (general, indirect, immediate) the doc
lists per operand, and predicates. The other docs have their lines below, each enumerated value
of their fields expanded by a loop. Every line goes to Intel's assembler for every platform; what
it rejects is kept as evidence by regen-fixtures.
"""

import re
from pathlib import Path

# Declarations every source starts with: one variable per type, predicates, an address
# register, surfaces, samplers, labels used by control flow.
TYPES = ["ub", "b", "uw", "w", "ud", "d", "uq", "q", "hf", "f", "df", "bf"]
VAR = {t: "V" + t.upper() for t in TYPES}
SIZE = dict(ub=1, b=1, uw=2, w=2, ud=4, d=4, uq=8, q=8, hf=2, f=4, df=8, bf=2)


def header(kernel):
    out = [".version 4.1", f'.kernel "{kernel}"']
    for t in TYPES:
        size = 2048 if t in ("ud", "d", "f", "uq") else 512
        out.append(f".decl {VAR[t]} v_type=G type={t} num_elts={size // SIZE[t]} align=GRF")
    out += [
        ".decl VA v_type=G type=ud num_elts=64 align=GRF alias=<VUD, 0>",
        ".decl P1 v_type=P num_elts=16",
        ".decl P2 v_type=P num_elts=32",
        ".decl A0 v_type=A num_elts=2",
        ".decl T6 v_type=T num_elts=1",
        ".decl S0 v_type=S num_elts=1",
        ".kernel_attr SimdSize=32",
    ]
    return out


EXEC_SIZES = [1, 2, 4, 8, 16, 32]
MASKS = ["M1", "M2", "M3", "M4", "M5", "M6", "M7", "M8"]
MASKS += [m + "_NM" for m in MASKS]

IMM = {
    "ub": "0x7:ub", "b": "0x7:b", "uw": "0x7:uw", "w": "0x7:w", "ud": "0x7:ud", "d": "0x7:d",
    "uq": "0x7:uq", "q": "0x7:q", "hf": "0x3c00:hf", "f": "0x3f800000:f",
    "df": "0x3ff0000000000000:df",
}


def dst(t, cls="general", es=8):
    if cls == "indirect":
        return f"r[A0(0),0]<1>:{t}"
    return f"{VAR[t]}(0,0)<1>"


def src(t, cls="general", es=8, mod="", row=1):
    if cls == "immediate":
        return IMM.get(t)
    if cls == "indirect":
        return f"{mod}r[A0(0),0]<1,0>:{t}"
    region = "<1;1,0>" if es > 1 else "<0;1,0>"
    return f"{mod}{VAR[t]}({row},0){region}"


def read_doc(path):
    """Format fields, per-field operand classes, supported types, saturation, modifiers."""
    text = path.read_text()
    doc = {"name": path.stem, "fields": [], "classes": {}, "must": {}, "types": [], "sat": False, "mod": "false"}
    rows = 0  # 1 while in the first format's rows (a format continues on rows with an empty first cell)
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| 0x") and not doc["fields"]:
            doc["fields"], rows = cells[1:], 1
        elif rows == 1 and line.startswith("|") and cells[0] == "":
            doc["fields"] += [c for c in cells[1:] if c]
        elif rows == 1:
            rows = 2
        m = re.match(r"- \*\*(\w+)\((\w+)\):\*\*.*Must have type ([A-Z, ]+)", line)
        if m:
            doc["must"][m.group(1)] = [t.strip().lower() for t in m.group(3).split(",") if t.strip()]
        m = re.match(r"- \*\*(\w+)\((\w+)\):\*\*.*Operand class: *([\w,]+)", line)
        if m:
            doc["classes"][m.group(1)] = m.group(3).split(",")
        m = re.match(r"- \*\*Supported Types:\*\* *(.*)", line)
        if m and not doc["types"]:
            doc["types"] = [t.lower() for t in re.findall(r"\b[A-Z]{1,2}\b", m.group(1))]
        if line.startswith("- **Saturation:**"):
            doc["sat"] = "Yes" in line or "float" in line
        if line.startswith("- **Source Modifier:**"):
            doc["mod"] = line.split("**")[-1].strip()
    return doc


ALU_FIELDS = {"Exec_size", "Pred", "Dst", "Carry", "Borrow", "Src0", "Src1", "Src2", "Src3"}
# Text mnemonics where they are not the doc's name in lower case.
MNEMONIC = {"PLN": "plane"}



def alu_line(doc, name, t, es=8, mask="M1", pred="", sat="", mods=None, classes=None):
    # The destination's type: the sources' where the doc allows it, else the first it allows;
    # the same for each source.
    allowed = doc["must"].get("Dst", [t])
    dt = t if t in allowed else allowed[0]
    mods = mods or {}
    classes = classes or {}
    ops = []
    for f in doc["fields"]:
        if f in ("Dst", "Carry", "Borrow"):
            ops.append(dst(dt, classes.get(f, "general"), es))
        elif f.startswith("Src"):
            # A source's own type where the doc restricts it (SAD2ADD: Src2 W while Src0 B).
            must = doc["must"].get(f, [t])
            st = t if t in must else must[0]
            o = src(st, classes.get(f, "general"), es, mods.get(f, ""), row=1 + len(ops))
            if o is None:
                return None
            ops.append(o)
    return f"{pred}{name}{sat} ({mask}, {es}) " + " ".join(ops)


def alu_lines(doc, name):
    """Every type, exec size, mask, .sat, modifier, operand class and predicate of an ALU doc."""
    # `Supported Types`, else the types the first source must have.
    types = [t for t in doc["types"] or doc["must"].get("Src0", []) if t in VAR] or ["d"]
    first = "f" if "f" in types else types[0]
    lines = [alu_line(doc, name, t) for t in types]
    lines += [alu_line(doc, name, first, es=es) for es in EXEC_SIZES if es != 8]
    lines += [alu_line(doc, name, first, es=4, mask=m) for m in MASKS]
    if doc["sat"]:
        lines.append(alu_line(doc, name, first, sat=".sat"))
    srcs = [f for f in doc["fields"] if f.startswith("Src")]
    mods = {"arithmetic": ["(-)", "(abs)", "(-abs)"], "logic": ["(~)"]}.get(doc["mod"], [])
    for m in mods:
        for s in srcs:
            lines.append(alu_line(doc, name, first, mods={s: m}))
    for f, classes in doc["classes"].items():
        for c in classes:
            if c in ("indirect", "immediate", "immediate16"):
                c = "immediate" if c.startswith("immediate") else c
                lines.append(alu_line(doc, name, first, classes={f: c}))
    for p in ["(P1) ", "(!P1) ", "(P1.any) ", "(!P1.all) "]:
        if "Pred" in doc["fields"]:
            lines.append(alu_line(doc, name, first, pred=p))
    return [line for line in lines if line]


def special(name):
    """Lines of the docs the table above does not expand."""
    d, ud, f = "VD.0", "VUD.0", "VF.0"
    L = []
    if name == "CMP":
        for op in ["eq", "ne", "gt", "ge", "lt", "le"]:
            for t in ["d", "ud", "w", "f", "hf", "df", "q"]:
                L.append(f"cmp.{op} (M1, 16) P1 {VAR[t]}(1,0)<1;1,0> {VAR[t]}(2,0)<1;1,0>")
            L.append(f"cmp.{op} (M1, 16) VD(0,0)<1> VD(1,0)<1;1,0> 0x7:d")
        L.append("cmp.lt (M1, 16) P1 (-)VF(1,0)<1;1,0> (abs)VF(2,0)<1;1,0>")
        L.append("cmp.lt (M1_NM, 32) P2 VF(1,0)<1;1,0> 0x3f800000:f")
    elif name == "MIN_MAX":
        for op in ["min", "max"]:
            for t in ["ub", "b", "uw", "w", "ud", "d", "uq", "q", "hf", "f", "df"]:
                L.append(f"{op} (M1, 8) {VAR[t]}(0,0)<1> {VAR[t]}(1,0)<1;1,0> {VAR[t]}(2,0)<1;1,0>")
            L.append(f"{op}.sat (M1, 8) VF(0,0)<1> (-)VF(1,0)<1;1,0> 0x3f800000:f")
            L.append(f"(P1) {op} (M1, 16) VD(0,0)<1> VD(1,0)<1;1,0> 0x7:d")
    elif name == "SETP":
        L += ["setp (M1, 16) P1 VUW(0,0)<0;1,0>", "setp (M1_NM, 16) P1 0x7:uw",
              "setp (M1, 32) P2 VUD(0,0)<0;1,0>", "setp (M1_NM, 32) P2 0x7:ud",
              "setp (M1, 16) P1 VW(0,0)<1;1,0>"]
    elif name == "MOVS":
        L += ["movs (M1_NM, 1) T6(0) VUD(0,0)<0;1,0>", "movs (M1_NM, 1) S0(0) VUD(0,0)<0;1,0>",
              "movs (M1_NM, 1) VUD(0,0)<1> T6(0)", "movs (M1_NM, 1) T6(0) 0x5:ud",
              "movs (M1_NM, 1) VUD(0,0)<1> %slm(0)"]
    elif name == "BFN":
        for v in range(256):
            L.append(f"bfn.x{v:x} (M1, 16) VD(0,0)<1> VD(1,0)<1;1,0> VD(2,0)<1;1,0> VD(3,0)<1;1,0>")
        L += ["bfn.xca (M1, 16) VUD(0,0)<1> 0x7:ud VUD(2,0)<1;1,0> 0x3:ud",
              "(P1) bfn.x80 (M1, 16) VW(0,0)<1> (~)VW(1,0)<1;1,0> VW(2,0)<1;1,0> VW(3,0)<1;1,0>"]
    elif name == "ADDR_ADD":
        L += ["addr_add (M1_NM, 1) A0(0)<1> &VD VD(0,0)<0;1,0>",
              "addr_add (M1_NM, 2) A0(0)<1> &VD[64] VUW(0,0)<1;1,0>",
              "addr_add (M1_NM, 1) A0(0)<1> &VF[4] 0x10:uw",
              "addr_add (M1_NM, 1) A0(0)<1> A0(1)<0;1,0> 0x40:uw",
              "addr_add (M1_NM, 1) A0(0)<1> &T6 0x0:uw"]
    elif name in ("GOTO", "JMP", "CALL"):
        m = name.lower()
        target = "SUB" if name == "CALL" else "LBL"  # a call's target is a subroutine
        for p in ["", "(P1) ", "(!P1) ", "(P1.any) ", "(!P1.all) "]:
            L.append(f"{p}{m} (M1, 16) {target}")
        L += [f"{m} (M1_NM, 1) {target}", f"{m} (M1, 32) {target}", f"{m} (M5, 8) {target}"]
    elif name in ("RET", "FRET"):
        m = name.lower()
        L += [f"{m} (M1, 1)", f"{m} (M1_NM, 1)", f"(P1) {m} (M1, 16)", f"{m} (M1, 32)"]
    elif name == "LABEL":
        L += ["LBL2:"]
    elif name == "SUBROUTINE":
        L += [".function \"SUB\""]
    elif name == "FCALL":
        L += ["fcall (M1, 1) callee 1 1", "(P1) fcall (M1, 16) callee 2 0",
              "fcall (M1_NM, 1) callee 0 0"]
    elif name == "FADDR":
        L += ["faddr callee VUQ(0,0)<1>", "faddr callee VUD(0,0)<1>"]
    elif name == "FILE":
        L += ['FILE "a.cl"', 'FILE "dir/b c.cl"']
    elif name == "LOC":
        L += ["LOC 1", "LOC 123456"]
    elif name == "BARRIER":
        L += ["barrier"]
    elif name == "SBARRIER":
        L += ["sbarrier.signal", "sbarrier.wait"]
    elif name == "CACHE_FLUSH":
        L += ["sampler_cache_flush"]  # erratum CACHE_FLUSH-text-mnemonic
    elif name == "YIELD":
        L += ["yield"]
    elif name == "WAIT":
        L += ["wait VUW(0,0)<0;1,0>", "wait 0x0:uw"]
    elif name == "FENCE":
        for flags in ["", "E", "I", "S", "C", "L1", "EI", "ES", "EC", "EL1", "EISCL1"]:
            L.append(f"fence_global.{flags}" if flags else "fence_global")
            if flags:
                L.append(f"fence_local.{flags}")
        L.append("fence_sw")
    elif name == "LSC_FENCE":
        for sfid in ["ugm", "ugml", "tgm", "slm"]:
            for op in ["none", "evict", "invalidate", "discard", "clean", "flushl3"]:
                for scope in ["group", "local", "tile", "gpu", "gpus", "system", "sysacq"]:
                    L.append(f"lsc_fence.{sfid}.{op}.{scope}")
    elif name == "GATHER":
        for es in [1, 8, 16]:
            for e in ["1", "2", "4"]:
                L.append(f"gather.{e} (M1, {es}) T6 0x0:ud VUD.0 VUD.256")
        L.append("gather.4 (M5, 16) %slm VUD(1,0)<0;1,0> VUD.0 VUD.256")
    elif name == "SCATTER":
        for es in [1, 8, 16]:
            for e in ["1", "2", "4"]:
                L.append(f"scatter.{e} (M1, {es}) T6 0x0:ud VUD.0 VUD.256")
    elif name in ("GATHER4_SCALED", "SCATTER4_SCALED", "SVM_GATHER4_SCALED", "SVM_SCATTER4_SCALED", "SCATTER4_TYPED"):
        m = name.lower()
        for ch in ["R", "G", "B", "A", "RG", "RB", "RA", "GB", "GA", "BA", "RGB", "RGA", "RBA", "GBA", "RGBA"]:
            if name == "SCATTER4_TYPED":
                L.append(f"{m}.{ch} (M1, 8) T6 VUD.0 VUD.64 VUD.128 VUD.192 VF.256")
            elif name.startswith("SVM_"):
                # GenX_IR's form (notes/visa-text-syntax.md): an address (uq scalar) first.
                L.append(f"{m.replace('4_', '4')}.{ch} (M1, 16) 0x0:uq VUQ.0 VF.512")
            else:
                L.append(f"{m}.{ch} (M1, 16) T6 0x0:ud VUD.0 VF.256")
        for es in [1, 2, 4, 8, 16]:
            if name == "SCATTER4_TYPED":
                L.append(f"(P1) {m}.RGBA (M1, {es}) T6 VUD.0 VUD.64 VUD.128 VUD.192 VF.256")
            elif name.startswith("SVM_"):
                L.append(f"(P1) {m.replace('4_', '4')}.RGBA (M1, {es}) VUQ(0,0)<0;1,0> VUQ.0 VF.512")
            else:
                L.append(f"(P1) {m}.R (M1, {es}) %slm VUD(1,0)<0;1,0> VUD.0 VF.256")
    elif name in ("GATHER_SCALED", "SCATTER_SCALED"):
        m = name.lower()
        for n in ["1", "2", "4"]:
            for es in [1, 2, 4, 8, 16]:
                L.append(f"{m}.{n} (M1, {es}) T6 0x0:ud VUD.0 VUD.256")
        L.append(f"(P1) {m}.4 (M1, 16) %slm VUD(1,0)<0;1,0> VUD.0 VUD.256")
    elif name in ("OWORD_LD", "OWORD_LD_UNALIGNED", "OWORD_ST"):
        m = name.lower()
        for n in [1, 2, 4, 8, 16]:
            L.append(f"{m} ({n}) T6 0x0:ud VUD.0")
        L.append(f"{m} (8) %slm VUD(1,0)<0;1,0> VUD.0")
    elif name in ("QW_GATHER", "QW_SCATTER"):
        m = name.lower()
        for n in ["1", "2", "4"]:
            for es in [1, 2, 4, 8, 16]:
                L.append(f"{m}.{n} (M1, {es}) T6 VUD.0 VUQ.256")
        L.append(f"(P1) {m}.1 (M1, 8) T6 VUD.0 VUQ.256")
    elif name == "DWORD_ATOMIC":
        for op in ["add", "sub", "inc", "dec", "min", "max", "xchg", "cmpxchg", "and", "or", "xor",
                   "imin", "imax", "fmax", "fmin", "fcmpwr", "fadd", "fsub", "predec"]:
            L.append(f"dword_atomic.{op} (M1, 8) T6 VUD.0 VUD.64 VUD.128 VUD.192")
        L.append("dword_atomic.add.16 (M1, 8) T6 VUD.0 VUW.64 %null.0 VUW.192")
        L.append("(P1) dword_atomic.inc (M1, 16) %slm VUD.0 %null.0 %null.0 VUD.192")
    elif name == "SVM_ATOMIC":
        for op in ["add", "sub", "inc", "dec", "min", "max", "xchg", "cmpxchg", "and", "or", "xor",
                   "minsint", "maxsint", "fmax", "fmin", "fcmpwr", "fadd", "fsub", "predec"]:
            L.append(f"svm_atomic.{op} (M1, 8) VUQ.0 VUD.128 VUD.192 VUD.256")
            L.append(f"svm_atomic.{op}.64 (M1, 8) VUQ.0 VUQ.128 VUQ.256 VUQ.384")
            L.append(f"svm_atomic.{op}.16 (M1, 8) VUQ.0 VUW.128 VUW.192 VUW.256")
        L.append("(P1) svm_atomic.add (M1, 16) VUQ.0 %null.0 VUD.192 %null.0")
    elif name in ("SVM_GATHER", "SVM_SCATTER"):
        m = name.lower()
        for bs in ["1", "4", "8"]:
            for nb in ["1", "2", "4", "8"]:
                L.append(f"{m}.{bs}.{nb} (M1, 8) VUQ.0 VUD.256")
        L.append(f"(P1) {m}.4.1 (M1, 16) VUQ.0 VUD.256")
        L.append(f"{m}.8.1 (M1, 1) VUQ.0 VUQ.256")
    elif name in ("SVM_BLOCK_LD", "SVM_BLOCK_ST"):
        m = name.lower()
        for n in [1, 2, 4, 8, 16]:
            L.append(f"{m} ({n}) VUQ(0,0)<0;1,0> VUD.256")
        if name == "SVM_BLOCK_LD":
            L.append("svm_block_ld.unaligned (4) VUQ(0,0)<0;1,0> VUD.256")
    elif name == "RAW_SEND":
        L += ["raw_send (M1, 16) 0xa 1 2 0x2210000:ud VUD.0 VUD.256",
              "raw_sendc (M1, 8) 0xa 1 1 0x2210000:ud VUD.0 VUD.256",
              "(P1) raw_send (M1, 16) 0xa 2 0 VUD(0,0)<0;1,0> VUD.0 %null.0"]
    elif name == "RAW_SENDS":
        # GenX_IR's form: sfid and the three register counts joined by dots (erratum
        # RAW_SENDS-text-dotted-counts); its parser reads raw_sendsc with the counts only
        # (sfid 0) and prints it with sfid.
        L += ["raw_sends.10.1.1.2 (M1, 16) 0x0:ud 0x2210000:ud VUD.0 VUD.256 VUD.512",
              "raw_sends.12.2.1.0 (M1, 8) VUD(0,0)<0;1,0> 0x2210000:ud VUD.0 VUD.256 %null.0",
              "(P1) raw_sends.10.1.1.2 (M1, 16) 0x0:ud VUD(0,1)<0;1,0> VUD.0 VUD.256 VUD.512",
              "raw_sendsc.1.1.2 (M1, 16) 0x0:ud 0x2210000:ud VUD.0 VUD.256 VUD.512"]
    elif name == "GATHER4_TYPED":
        for ch in ["R", "G", "B", "A", "RG", "RB", "RA", "GB", "GA", "BA", "RGB", "RGA", "RBA", "GBA", "RGBA"]:
            L.append(f"gather4_typed.{ch} (M1, 16) T6 VUD.0 %null.0 %null.0 %null.0 VF.256")
        for es in [1, 2, 4, 8, 16]:
            L.append(f"(P1) gather4_typed.RGBA (M1, {es}) T6 VUD.0 VUD.64 VUD.128 VUD.192 VF.256")
    elif name == "TYPED_ATOMIC":
        for op in ["add", "sub", "inc", "dec", "min", "max", "xchg", "cmpxchg", "and", "or", "xor",
                   "minsint", "maxsint", "fmax", "fmin", "fcmpwr"]:
            L.append(f"typed_atomic.{op} (M1, 8) T6 VUD.0 VUD.64 VUD.128 VUD.192 VUD.256 %null.0 VUD.320")
        L.append("(P1) typed_atomic.add (M1, 16) T6 VUD.0 %null.0 %null.0 %null.0 VUD.256 %null.0 VUD.320")
    elif name == "LIFETIME":
        L += ["lifetime.start VUD", "lifetime.end VUD", "lifetime.start P1", "lifetime.end A0"]
    elif name == "IFCALL":
        L += ["ifcall (M1, 1) VUQ(0,0)<0;1,0> 1 1", "ifcall (M1, 1) VUD(0,0)<0;1,0> 1 1",
              "(P1) ifcall (M1, 16) VUQ(0,0)<0;1,0> 2 0"]
    elif name == "NBARRIER":
        L += ["nbarrier.wait 0x1:ub", "nbarrier.wait VUB(0,0)<0;1,0>", "nbarrier.signal 0x1:ub 0x8:ub",
              "nbarrier.signal VUB(0,0)<0;1,0> VUB(0,1)<0;1,0>"]
    elif name == "SWITCHJMP":
        L += ["switchjmp (M1, 1) VUB(0,0)<0;1,0> (LBL)", "switchjmp (M1_NM, 1) VUW(0,0)<0;1,0> (LBL, LBL)"]
    elif name == "MEDIA_ST":
        # The doc's values; GenX_IR also takes `modified` (0b001, the doc's "reserved") and
        # prints it `reserved`, and refuses 4 and 5 ("MEDIA_ST modifier must be 0-3").
        for mod in ["nomod", "top", "bottom"]:
            L.append(f"media_st.{mod} (16,4) T6 0 0x0:d 0x0:d VUD.0")
        for w, h in [(1, 1), (4, 8), (8, 2), (32, 8), (64, 4)]:
            L.append(f"media_st.nomod ({w},{h}) T6 1 VUD(0,0)<0;1,0> VUD(0,1)<0;1,0> VUD.256")
    elif name == "DPASW":
        for a in ["u8", "s8", "u4", "s4", "u2", "s2", "bf", "hf"]:
            for rc in [1, 2, 4, 8]:
                L.append(f"dpasw.{a}.{a}.8.{rc} (M1, 8) VD.0 VD.512 VD.1024 VD(48,0)")
    elif name == "DPAS":
        # Exec size 8 or 16 (the platform's native SIMD), each precision, each repeat count;
        # systolic depths other than 8 once each.
        for es in [8, 16]:
            for a in ["u8", "s8", "u4", "s4", "u2", "s2", "bf", "hf", "tf32"]:
                for rc in [1, 2, 4, 8]:
                    L.append(f"dpas.{a}.{a}.8.{rc} (M1, {es}) VD.0 VD.512 VD.1024 VD(48,0)")
            for sd in [1, 2, 4]:
                L.append(f"dpas.u8.u8.{sd}.8 (M1, {es}) VD.0 VD.512 VD.1024 VD(48,0)")
        L += ["dpas.bf.bf.8.8 (M1, 16) VF.0 %null.0 VD.1024 VD(48,0)",
              "dpas.hf.hf.8.8 (M1, 8) VF.0 VF.512 VD.1024 VD(48,0)",
              "dpas.s8.u8.8.1 (M1, 8) VD.0 VD.512 VD.1024 VD(48,0)"]
    elif name == "LSC_UNTYPED":
        for sfid, addr in [("ugm", "flat"), ("slm", "flat"), ("ugm", "bti(0x2)"), ("ugm", "bss(VUD.0)")]:
            L.append(f"lsc_load.{sfid} (M1, 16) VUD.256:d32 {addr}[VUD.0]:a32")
            L.append(f"lsc_store.{sfid} (M1, 16) {addr}[VUD.0]:a32 VUD.256:d32")
        for ds in ["d8u32", "d16u32", "d32", "d64", "d8c32", "d16c32"]:
            L.append(f"lsc_load.ugm (M1, 16) VUD.256:{ds} flat[VUQ.0]:a64")
        for v in ["x2", "x3", "x4", "x8", "x16", "x32", "x64"]:
            L.append(f"lsc_load.ugm (M1_NM, 1) VUD.256:d32{v}t flat[VUQ.0]:a64")
        for c in [".df.df", ".uc.uc", ".ca.ca", ".uc.ca", ".ca.uc", ".st.st", ".wb.wb", ".wt.wt"]:
            L.append(f"lsc_load.ugm{c} (M1, 16) VUD.256:d32 flat[VUQ.0]:a64")
        for op in ["iinc", "idec", "iadd", "isub", "smin", "smax", "umin", "umax", "icas", "fadd",
                   "fsub", "fmin", "fmax", "fcas", "and", "or", "xor", "store", "load"]:
            srcs = {"iinc": "%null %null", "idec": "%null %null", "load": "%null %null",
                    "icas": "VUD.512 VUD.768", "fcas": "VUD.512 VUD.768"}.get(op, "VUD.512 %null")
            L.append(f"lsc_atomic_{op}.ugm (M1, 16) VUD.256:d32 flat[VUQ.0]:a64 {srcs}")
        for ch in ["x", "xy", "xyz", "xyzw", "xz", "yw"]:
            L.append(f"lsc_load_quad.ugm (M1, 16) VUD.256:d32.{ch} flat[VUQ.0]:a64")
        L += ["lsc_load_strided.ugm (M1, 16) VUD.256:d32x4 flat[VUQ.0, 0x10]:a64",
              "lsc_load_block2d.ugm (M1, 1) VUD.256:d16.2x32x32nn flat[VUQ.0,0x3f,0x1f,0x3f,0x0,0x0]",
              "(P1) lsc_load.ugm (M1, 16) VUD.256:d32 flat[VUQ.0+0x40]:a64",
              "lsc_load.ugm (M1, 16) VUD.256:d32 flat[VUQ.0-0x40]:a64"]
    elif name == "INFO":
        L += ["resinfo.RGBA (M1, 16) T6 VUD.0 VUD.256", "sampleinfo.RGBA (M1, 16) T6 VUD.256"]
    elif name == "RT_READ":
        L += ["rt_read (M1, 16) T6 VF.0", "rt_read.ps (M1, 8) T6 VF.0",
              "rt_read.si (M1, 16) T6 VUD(0,0)<0;1,0> VF.256"]
    elif name == "MEDIA_LD":
        # GenX_IR's form (notes/visa-text-syntax.md): the modifier by name, `(w,h)` with no
        # space, the plane a bare number.
        for mod in ["nomod", "modified", "top", "bottom", "top_mod", "bottom_mod"]:
            L.append(f"media_ld.{mod} (16,4) T6 0 0x0:d 0x0:d VUD.0")
        for w, h in [(1, 1), (4, 8), (8, 2), (32, 8), (64, 4)]:
            L.append(f"media_ld.nomod ({w},{h}) T6 1 VUD(0,0)<0;1,0> VUD(0,1)<0;1,0> VUD.256")
    elif name == "FCVT":
        L += ["fcvt (M1, 16) VUB(0,0)<1> VHF(1,0)<1;1,0>", "fcvt (M1, 16) VHF(0,0)<1> VUB(1,0)<1;1,0>"]
    return L


# Docs of instructions Intel's compiler and assembler do not reach in 12504.6 text (media
# samplers, VME, 3D sampler forms); each still gets a line, for the evidence.
MORE = {
    "3D_LOAD": ["load_lz.RGBA (M1, 16) 0x0:uw T6 VF.0 VF.256 VF.384 VF.512",
                "load_3d.R (M1, 16) 0x0:uw T6 VF.0 VUD.256 VUD.384 VUD.512"],
    "3D_SAMPLE": ["sample_3d.RGBA (M1, 16) 0x0:uw S0 T6 VF.0 VF.256 VF.384",
                  "sample_l.RGBA (M1, 16) 0x0:uw S0 T6 VF.0 VF.256 VF.384 VF.512"],
    # Each operation GenX_IR 12504.6 names (`sample4`, `sample4_c`, `sample4_po`, `sample4_po_c`:
    # Op 0x08, 0x10, 0x11, 0x12) with each source channel, `.pixel_null_mask`, predicates, exec
    # sizes and masks, Aoffimmi as an immediate and a variable, and parameter counts; then the
    # doc's other operations in IGC 2.x's words and the doc's own spellings, which it rejects.
    # No `sample4_po_c` (0x12): Intel's reader (`intel-isa read`) never returns on XeHP_SDV and DG2
    # for any such line; errata/evidence/sample4_po_c.visaasm has it for TGLLP and PVC.
    "3D_SAMPLE4": [
        f"sample4.{ch} (M1, 16) 0x0:uw S0 T6 VF.0 VF.256 VF.384" for ch in "RGBA"
    ] + [
        "sample4_c.R (M1, 16) 0x0:uw S0 T6 VF.0 VF.256 VF.384 VF.512",
        "sample4_po.G (M1, 16) 0x0:uw S0 T6 VF.0 VF.256 VF.384 VD.0 VD.256",
        "sample4.pixel_null_mask.A (M1, 16) 0x0:uw S0 T6 VF.0 VF.256",
        "sample4_c.pixel_null_mask.G (M1, 16) 0x0:uw S0 T6 VF.0 VF.256 VF.384",
        "(P1) sample4.R (M5, 8) 0x123:uw S0 T6 VF.0 VF.128",
        "(!P2) sample4_c.B (M1_NM, 32) 0x0:uw S0 T6 VF.0 VF.256 VF.512 VF.768 VF.1024",
        "sample4.R (M1, 8) VUW(0,0)<0;1,0> S0 T6 VF.0 VF.128 VF.256 VF.384 VF.512",
        "sample4.G (M1, 16) 0x0:uw S0 T6 VHF.0 VHF.32 VHF.64",
    ] + [
        f"{op}.R (M1, 16) 0x0:uw S0 T6 VF.0 VF.256 VF.384 VF.512"
        for op in ["sample4_l", "sample4_b", "sample4_i", "sample4_i_c", "sample4_l_c",
                   "sample4_po_l", "sample4_po_b", "sample4_po_i", "sample4_po_i_c", "sample4_po_l_c",
                   "gather4", "SAMPLE4"]
    ],
    # GenX_IR's form (notes/visa-text-syntax.md): no exec size, the surface before the sampler,
    # u2d after deltaV, cntrl and execMode by name (`avs_control_str`, `avs_exec_mode`: GenX_IR
    # names exec mode 1, the doc's 8x4, `AVS_INVALID`, and has no name for 3, the doc's 4x4).
    "AVS": [
        f"avs.{ch} T6 S0 0x0:f 0x0:f 0x0:f 0x0:f 0x0:f 0x0:ud 0x0:ud {cntrl} 0x0:f {mode} 0x0:ub VUD.0"
        for ch, cntrl, mode in [
            ("RGBA", "AVS_16_FULL", "AVS_16x4"), ("R", "AVS_16_DOWN_SAMPLE", "AVS_16x4"),
            ("GB", "AVS_8_FULL", "AVS_16x8"), ("RGA", "AVS_8_DOWN_SAMPLE", "AVS_16x8"),
            ("RGBA", "AVS_16_FULL", "AVS_INVALID"),
        ]
    ],
    # Each output format (Channel_mask bits 5..4) with channel masks (bits 3..0), in the
    # doc's template: GenX_IR prints them as the doc's comment spells them (`16-downsampled`).
    "SAMPLE_UNORM": [
        f"sample_unorm.{ch}.{fmt} S0 T6 0x0:f 0x0:f 0x0:f 0x0:f VUD.0"
        for ch in ["RGBA", "R", "GA", "RGB"]
        for fmt in ["16-full", "16-downsampled", "8-full", "8-downsampled"]
    ],
    # Every stream mode and search control, in the doc's spacing and in Intel's (GenX_IR prints
    # them as numbers, `vme_ime(1,3) T6  VUD.0`; its verifier rejects search control 2).
    "VME_IME": ["vme_ime (0, 0) T6 VUD.0 VUD.256 VUD.384 VUD.512 VUD.640 VUD.768"] + [
        f"vme_ime({mode},{ctrl}) T6 VUD.0 VUD.256 VUD.384 VUD.512 VUD.640 VUD.768"
        for mode in range(4) for ctrl in range(4) if (mode, ctrl) != (0, 0)
    ],
    "VME_SIC": ["vme_sic T6 VUD.0 VUD.256 VUD.512"],
    "SVM": [],
}


# Lines beyond the doc's own types: D operands for CBIT and FBH, the evidence of errata
# CBIT-d-operands and FBH-dst-type-d.
EXTRA = {
    m.upper(): [
        f"{m} (M1, 8) VD(0,0)<1> VD(2,0)<1;1,0>",
        f"{m} (M1, 8) r[A0(0),0]<1>:d VD(2,0)<1;1,0>",
        f"{m} (M1, 8) VD(0,0)<1> r[A0(0),0]<1,0>:d",
        f"{m} (M1, 8) VD(0,0)<1> 0x7:d",
    ]
    for m in ["cbit", "fbh"]
}


def sources(docs):
    """{doc name: instruction lines} for every doc of `docs`."""
    out = {}
    for path in sorted(Path(docs).glob("*.md")):
        name = path.stem
        doc = read_doc(path)
        lines = special(name) or MORE.get(name)
        if lines is None:
            if set(doc["fields"]) <= ALU_FIELDS and "Dst" in doc["fields"]:
                lines = alu_lines(doc, MNEMONIC.get(name, name.lower()))
            else:
                lines = []
        out[name] = lines + EXTRA.get(name, [])
    return out


def text(kernel, lines):
    """A whole vISA text: declarations, the lines (indented), a label and a callee they use."""
    body = []
    for line in lines:
        body.append(line if line.endswith(":") or line.startswith((".", "FILE", "LOC")) else "    " + line)
    tail = ["LBL:", "    ret (M1, 1)"]
    if any(line.endswith(" SUB") for line in lines):
        tail += ['.function "SUB"', "SUB:", "    ret (M1, 1)"]
    return "\n".join(header(kernel) + body + tail + [""])
