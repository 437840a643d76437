//! Reads the headers Verilator 5 generates for a model (`V<prefix>___024root.h` and the
//! headers of its package cells) and turns every design signal into a [`Member`]: its full
//! VCD name, width, C storage type and unpacked dimensions.
//!
//! Used by `build.rs` (through `#[path]`) to generate the C++ shim's signal table, and by
//! `tests/rtl_ffi.rs` to unit-test the name decoding. It depends on nothing but `std`.
//!
//! Name rules (checked against Verilator 5.006's own VCD, see
//! `docs/decisions/0001-verilator-integration.md`):
//! - a root member declared with `VL_IN*` / `VL_OUT*` / `VL_INOUT*` is a top-level port,
//!   named `TOP.<port>`; an unpacked array port is a C array whose dimensions Verilator writes
//!   into the name (`VL_INW(d_i[4],127,0,4)`): its elements are `TOP.d_i[0]` ... `TOP.d_i[3]`;
//! - a root member whose name contains `__DOT__` is a design signal, named `TOP.` followed by
//!   the decoded member name (`__DOT__` -> `.`, `__BRA__` -> `[`, `__KET__` -> `]`,
//!   `__0XX` -> the character with hex code `XX`, so `__05F` -> `_` and `__024` -> `$`);
//! - a member of a package cell `__PVT__<pkg>` is named `TOP.<pkg>.<member>`;
//! - anything else (Verilator's own `__V*` members, any path component that starts with
//!   `__V`, `vlSymsp`, ...) is not a design signal and is dropped silently;
//! - `static` members are parameters: reported as excluded, never in the table.

// Each user (build.rs, a test) uses a different subset of this module.
#![allow(dead_code)]

/// Unpacked arrays with a dimension larger than this are left out. Must equal the
/// `--trace-max-array` given to Verilator, so the table and Verilator's VCD agree.
pub const MAX_ARRAY: u32 = 64;
/// Widest signal (or array element) the table carries; `RtlModel::get` returns a `u128`.
pub const MAX_WIDTH: u32 = 128;
/// Most unpacked dimensions the table carries (the C struct has this many `dims`).
pub const MAX_DIMS: usize = 4;

/// C storage of one element, as Verilator declares it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Storage {
    /// `CData`: `uint8_t`, widths 1..=8.
    C,
    /// `SData`: `uint16_t`, widths 9..=16.
    S,
    /// `IData`: `uint32_t`, widths 17..=32.
    I,
    /// `QData`: `uint64_t`, widths 33..=64.
    Q,
    /// `VlWide<N>`: `N` little-endian `uint32_t` words, widths above 64.
    Wide(u32),
}

impl Storage {
    /// The C++ type name.
    pub fn ctype(self) -> String {
        match self {
            Storage::C => "CData".into(),
            Storage::S => "SData".into(),
            Storage::I => "IData".into(),
            Storage::Q => "QData".into(),
            Storage::Wide(n) => format!("VlWide<{n}>"),
        }
    }

    /// The `EXANET_VL_*` kind constant of `testbench/exanet_vl.h`.
    pub fn kind(self) -> &'static str {
        match self {
            Storage::C => "EXANET_VL_CDATA",
            Storage::S => "EXANET_VL_SDATA",
            Storage::I => "EXANET_VL_IDATA",
            Storage::Q => "EXANET_VL_QDATA",
            Storage::Wide(_) => "EXANET_VL_WIDE",
        }
    }
}

/// One design signal (a scalar, or a whole unpacked array) of the model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    /// C++ expression reaching the member from a `V..___024root*` named `root`.
    pub access: String,
    /// Full hierarchical name as Verilator writes it in its VCD, without array indices.
    pub vcd_name: String,
    /// Bits per element.
    pub width: u32,
    /// Storage of one element.
    pub storage: Storage,
    /// Unpacked dimensions, outermost first; empty for a scalar.
    pub dims: Vec<u32>,
    /// A top-level input (or inout) port: the only members the test bench may write.
    pub is_input: bool,
}

impl Member {
    /// Number of elements (1 for a scalar).
    pub fn count(&self) -> u32 {
        self.dims.iter().product()
    }
}

/// A member that is a design signal (or parameter) but is not in the table, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Excluded {
    /// Full VCD name (without indices).
    pub vcd_name: String,
    /// Why it is left out; parameters say exactly [`PARAMETER`].
    pub reason: String,
}

/// The `reason` of an excluded parameter.
pub const PARAMETER: &str = "parameter";

/// A sub-object (a package, or a module instance Verilator did not inline): member `member`
/// of the parsed class points to an instance of class `class`, declared in `<class>.h`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cell {
    pub class: String,
    pub member: String,
}

/// What one class header holds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Parsed {
    pub members: Vec<Member>,
    pub excluded: Vec<Excluded>,
    pub cells: Vec<Cell>,
}

/// Decodes a name mangled by Verilator (`AstNode::encodeName`) into the name used in VCD.
pub fn decode(raw: &str) -> String {
    let b = raw.as_bytes();
    let mut out = String::with_capacity(raw.len());
    let mut i = 0;
    while i < b.len() {
        let rest = &raw[i..];
        if let Some((pat, rep)) = [("__DOT__", '.'), ("__BRA__", '['), ("__KET__", ']')]
            .iter()
            .find(|(p, _)| rest.starts_with(p))
        {
            out.push(*rep);
            i += pat.len();
            continue;
        }
        if rest.len() >= 5 && rest.starts_with("__0") {
            if let Ok(code) = u8::from_str_radix(&rest[3..5], 16) {
                out.push(code as char);
                i += 5;
                continue;
            }
        }
        let c = rest.chars().next().expect("non-empty");
        out.push(c);
        i += c.len_utf8();
    }
    out
}

/// True for members Verilator adds for itself: any `__DOT__`-separated component that starts
/// with `__V` (`__Vdly__..`, `__Vtrig..`, `top__DOT____Vcellinp__..`).
pub fn is_internal(raw: &str) -> bool {
    raw.split("__DOT__").any(|c| c.starts_with("__V"))
}

/// Parses a Verilator type spelling such as `CData/*7:0*/`, `VlWide<4>/*99:0*/` or
/// `VlUnpacked<VlUnpacked<CData/*7:0*/, 3>, 2>` into (storage, width, dims outermost first).
/// `None` for anything else (`double`, `std::string`, `VlQueue<..>`, ...).
pub fn parse_type(t: &str) -> Option<(Storage, u32, Vec<u32>)> {
    let t = t.trim();
    if let Some(inner) = t
        .strip_prefix("VlUnpacked<")
        .and_then(|s| s.strip_suffix('>'))
    {
        // The depth follows the last top-level comma; the element type may hold commas
        // only inside nested `<...>`, and never after its own closing `>`.
        let comma = inner.rfind(',')?;
        let depth: u32 = inner[comma + 1..].trim().parse().ok()?;
        let (storage, width, mut dims) = parse_type(&inner[..comma])?;
        dims.insert(0, depth);
        return Some((storage, width, dims));
    }
    let (base, comment) = match t.find("/*") {
        Some(p) => (t[..p].trim(), &t[p..]),
        None => (t, ""),
    };
    let range = comment.strip_prefix("/*")?.strip_suffix("*/")?;
    let (msb, lsb) = range.split_once(':')?;
    let width = msb.trim().parse::<u32>().ok()? + 1 - lsb.trim().parse::<u32>().ok()?;
    let storage = match base {
        "CData" => Storage::C,
        "SData" => Storage::S,
        "IData" => Storage::I,
        "QData" => Storage::Q,
        _ => {
            let words = base.strip_prefix("VlWide<")?.strip_suffix('>')?;
            Storage::Wide(words.trim().parse().ok()?)
        }
    };
    Some((storage, width, Vec::new()))
}

/// A top-level port as its `VL_IN*` / `VL_OUT*` line declares it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Port {
    /// The C++ member name, without array dimensions.
    name: String,
    storage: Storage,
    /// Bits per element.
    width: u32,
    /// Unpacked dimensions, outermost first; empty for a scalar port.
    dims: Vec<u32>,
    is_input: bool,
}

/// Parses a port line `VL_IN8(clk_i,0,0);` / `VL_OUTW(sum_o,127,0,4);`. An unpacked array port
/// (`input logic [127:0] d_i [4]`) is a C array member, its dimensions in the name:
/// `VL_INW(d_i[4],127,0,4);`, `VL_IN8(m_i[2][3],2,0);`.
fn parse_port(line: &str) -> Option<Port> {
    let rest = line.strip_prefix("VL_")?;
    let open = rest.find('(')?;
    let (dir_size, args) = (&rest[..open], rest[open + 1..].strip_suffix(");")?);
    let (is_input, size) = if let Some(s) = dir_size.strip_prefix("INOUT") {
        (true, s)
    } else if let Some(s) = dir_size.strip_prefix("IN") {
        (true, s)
    } else {
        (false, dir_size.strip_prefix("OUT")?)
    };
    let args: Vec<&str> = args.split(',').map(str::trim).collect();
    let (msb, lsb): (u32, u32) = (args.get(1)?.parse().ok()?, args.get(2)?.parse().ok()?);
    let storage = match size {
        "8" => Storage::C,
        "16" => Storage::S,
        "" => Storage::I,
        "64" => Storage::Q,
        "W" => Storage::Wide(args.get(3)?.parse().ok()?),
        _ => return None,
    };
    let (name, dims) = split_dims(args[0])?;
    Some(Port {
        name,
        storage,
        width: msb + 1 - lsb,
        dims,
        is_input,
    })
}

/// Splits `d_i[4][2]` into (`d_i`, [4, 2]); a name without brackets has no dimensions.
fn split_dims(decl: &str) -> Option<(String, Vec<u32>)> {
    let (name, mut rest) = match decl.find('[') {
        Some(at) => (&decl[..at], &decl[at..]),
        None => (decl, ""),
    };
    let mut dims = Vec::new();
    while !rest.is_empty() {
        let (depth, tail) = rest.strip_prefix('[')?.split_once(']')?;
        dims.push(depth.trim().parse().ok()?);
        rest = tail;
    }
    (!name.is_empty()).then(|| (name.to_string(), dims))
}

/// Why a signal of this shape cannot be in the table, if it cannot.
fn exclusion(width: u32, dims: &[u32]) -> Option<String> {
    if width > MAX_WIDTH {
        Some(format!("{width} bits wide, more than {MAX_WIDTH}"))
    } else if dims.len() > MAX_DIMS {
        Some(format!(
            "{} unpacked dimensions, more than {MAX_DIMS}",
            dims.len()
        ))
    } else {
        dims.iter().find(|&&d| d > MAX_ARRAY).map(|d| {
            format!("unpacked dimension of {d} elements, more than {MAX_ARRAY} (not traced either)")
        })
    }
}

/// Where the members of a class header live: the root, or a cell below it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scope {
    /// C++ path from a root pointer `root` to this object's members: `""` for the root,
    /// `"__PVT__pkg->"` for a cell, `"__PVT__a->__PVT__b->"` for a cell in a cell.
    pub access: String,
    /// VCD name prefix of its members: `"TOP."`, `"TOP.exanet_base_selftest_pkg."`,
    /// `"TOP.exanet_selftest_top.gen_vc[0].u_lane."`.
    pub name: String,
    /// The root: only its `VL_IN*` members are top-level inputs, and only its `__DOT__`
    /// members are design signals besides ports.
    pub is_root: bool,
}

impl Scope {
    /// The root class `V<prefix>___024root`.
    pub fn root() -> Scope {
        Scope {
            access: String::new(),
            name: "TOP.".into(),
            is_root: true,
        }
    }

    /// The cell held in this scope's member `member` (`__PVT__<mangled instance path>`).
    pub fn cell(&self, member: &str) -> Scope {
        let path = member.strip_prefix("__PVT__").unwrap_or(member);
        Scope {
            access: format!("{}{member}->", self.access),
            name: format!("{}{}.", self.name, decode(path)),
            is_root: false,
        }
    }
}

/// Parses the body of class `class` in header text `text`. `prefix` is the model's
/// `V<name>`: class names of cells start with it.
///
/// Verilator keeps as a separate object (a cell, `V<prefix>_<module>* __PVT__<path>;`) every
/// package, and every module instance it chose not to inline (a large module instantiated
/// many times, or one marked `/* verilator no_inline_module */`). A cell's members have no
/// prefix (`prio_q`, `gen_in__BRA__0__KET____DOT__u_fifo__DOT__wptr_q`), and its ports are
/// `VL_IN*`/`VL_OUT*` members that are not top-level inputs.
pub fn parse_class(text: &str, class: &str, scope: &Scope, prefix: &str) -> Result<Parsed, String> {
    let head = format!("class {class} ");
    let start = text
        .find(&head)
        .ok_or_else(|| format!("no `class {class}` in the header"))?;
    let mut parsed = Parsed::default();
    for line in text[start..].lines().skip(1) {
        let line = line.trim();
        // The class ends here; inner anonymous `struct { .. };` blocks end in `};`.
        if line.starts_with("} VL_ATTR_ALIGNED") {
            break;
        }
        // A wide parameter's initializer spans lines (`static constexpr VlWide<3>/*79:0*/ x = {{`,
        // its words, `}};`); its name is on the first, which is all a parameter needs.
        let wide_param = line.starts_with("static ") && line.contains('=');
        if line.starts_with("//") || !(line.ends_with(';') || wide_param) {
            continue;
        }
        if let Some(port) = parse_port(line) {
            let vcd_name = format!("{}{}", scope.name, decode(&port.name));
            match exclusion(port.width, &port.dims) {
                Some(reason) => parsed.excluded.push(Excluded { vcd_name, reason }),
                None => parsed.members.push(Member {
                    access: format!("{}{}", scope.access, port.name),
                    vcd_name,
                    width: port.width,
                    storage: port.storage,
                    dims: port.dims,
                    is_input: port.is_input && scope.is_root,
                }),
            }
            continue;
        }
        if line.contains('(') {
            continue; // constructors, methods, VL_UNCOPYABLE(..)
        }
        let decl = line.trim_end_matches(';').trim();
        if let Some(param) = decl.strip_prefix("static ") {
            // `static constexpr IData/*31:0*/ top__DOT__u_a__DOT__Width = 0x0000000aU;`
            let lhs = param.split('=').next().unwrap_or("").trim();
            let name = lhs.rsplit(' ').next().unwrap_or("");
            if !name.is_empty() && !is_internal(name) && !name.starts_with("vl") {
                parsed.excluded.push(Excluded {
                    vcd_name: format!("{}{}", scope.name, decode(name)),
                    reason: PARAMETER.into(),
                });
            }
            continue;
        }
        let Some(split) = decl.rfind([' ', '*']) else {
            continue;
        };
        let (ty, name) = (decl[..=split].trim(), decl[split + 1..].trim());
        if name.is_empty() || is_internal(name) || name.starts_with("vl") {
            continue;
        }
        if let Some(class) = ty.strip_suffix('*') {
            let class = class.trim();
            if name.starts_with("__PVT__") && class.starts_with(prefix) {
                parsed.cells.push(Cell {
                    class: class.to_string(),
                    member: name.to_string(),
                });
            }
            continue;
        }
        // In the root only `__DOT__` members are design signals (ports came as VL_ macros).
        if scope.is_root && !name.contains("__DOT__") {
            continue;
        }
        let vcd_name = format!("{}{}", scope.name, decode(name));
        match parse_type(ty) {
            None => parsed.excluded.push(Excluded {
                vcd_name,
                reason: format!("unsupported type `{ty}`"),
            }),
            Some((storage, width, dims)) => match exclusion(width, &dims) {
                Some(reason) => parsed.excluded.push(Excluded { vcd_name, reason }),
                None => parsed.members.push(Member {
                    access: format!("{}{name}", scope.access),
                    vcd_name,
                    width,
                    storage,
                    dims,
                    is_input: false,
                }),
            },
        }
    }
    Ok(parsed)
}

/// Expands an unpacked array's element names in row-major order: `a[0][0]`, `a[0][1]`, ...
pub fn element_names(base: &str, dims: &[u32]) -> Vec<String> {
    let mut names = vec![base.to_string()];
    for &d in dims {
        names = names
            .iter()
            .flat_map(|n| (0..d).map(move |i| format!("{n}[{i}]")))
            .collect();
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_verilator_mangling() {
        assert_eq!(
            decode("top__DOT__gen_vc__BRA__0__KET____DOT__u_cnt__DOT__cnt_q"),
            "top.gen_vc[0].u_cnt.cnt_q"
        );
        assert_eq!(decode("t__DOT__a___05Fb_q"), "t.a__b_q");
        assert_eq!(decode("t__DOT__esc__02ename"), "t.esc.name");
        assert_eq!(decode("__024unit"), "$unit");
        assert_eq!(decode("a_b"), "a_b");
        assert_eq!(decode("a___DOT__b"), "a_.b");
    }

    #[test]
    fn recognises_internal_members() {
        assert!(is_internal("__Vdly__t__DOT__x"));
        assert!(is_internal("t__DOT____Vcellinp__u_a__en_i"));
        assert!(!is_internal("t__DOT__u_a__DOT__cnt_q"));
    }

    #[test]
    fn parses_types() {
        assert_eq!(parse_type("CData/*0:0*/"), Some((Storage::C, 1, vec![])));
        assert_eq!(
            parse_type("VlWide<4>/*99:0*/"),
            Some((Storage::Wide(4), 100, vec![]))
        );
        assert_eq!(
            parse_type("VlUnpacked<VlUnpacked<CData/*7:0*/, 3>, 2>"),
            Some((Storage::C, 8, vec![2, 3]))
        );
        assert_eq!(
            parse_type("VlUnpacked<VlWide<4>/*99:0*/, 3>"),
            Some((Storage::Wide(4), 100, vec![3]))
        );
        assert_eq!(parse_type("double"), None);
        assert_eq!(parse_type("VlTriggerVec<1>"), None);
    }

    fn port(name: &str, storage: Storage, width: u32, dims: &[u32], is_input: bool) -> Port {
        Port {
            name: name.into(),
            storage,
            width,
            dims: dims.to_vec(),
            is_input,
        }
    }

    #[test]
    fn parses_ports() {
        assert_eq!(
            parse_port("VL_INW(data100_i,99,0,4);"),
            Some(port("data100_i", Storage::Wide(4), 100, &[], true))
        );
        assert_eq!(
            parse_port("VL_OUT16(pipe_o,15,0);"),
            Some(port("pipe_o", Storage::S, 16, &[], false))
        );
        assert_eq!(
            parse_port("VL_IN(wr_data_i,31,0);"),
            Some(port("wr_data_i", Storage::I, 32, &[], true))
        );
        assert_eq!(parse_port("VL_UNCOPYABLE(Vx___024root);"), None);
    }

    #[test]
    fn parses_unpacked_array_ports() {
        // As Verilator 5.006 declares `input logic [127:0] d_i [4]` and friends.
        assert_eq!(
            parse_port("VL_INW(d_i[4],127,0,4);"),
            Some(port("d_i", Storage::Wide(4), 128, &[4], true))
        );
        assert_eq!(
            parse_port("VL_IN8(v_i[2],2,0);"),
            Some(port("v_i", Storage::C, 3, &[2], true))
        );
        assert_eq!(
            parse_port("VL_IN8(m_i[2][3],2,0);"),
            Some(port("m_i", Storage::C, 3, &[2, 3], true))
        );
        assert_eq!(
            parse_port("VL_OUT64(q_o[1],40,0);"),
            Some(port("q_o", Storage::Q, 41, &[1], false))
        );
        assert_eq!(parse_port("VL_IN8(bad_i[x],2,0);"), None);
        assert_eq!(parse_port("VL_IN8(bad_i[2,2,0);"), None);

        let text = r#"
class Vx___024root final : public VerilatedModule {
  public:
    struct {
        VL_IN8(clk_i,0,0);
        VL_INW(d_i[3],127,0,4);
        VL_OUT16(u_o[2],15,0);
        VL_IN8(deep_i[65],0,0);
        VlUnpacked<VlWide<4>/*127:0*/, 3> t__DOT__d_i;
    };
} VL_ATTR_ALIGNED(VL_CACHE_LINE_BYTES);
"#;
        let p = parse_class(text, "Vx___024root", &Scope::root(), "Vx").unwrap();
        let m = |n: &str| p.members.iter().find(|m| m.vcd_name == n).unwrap();
        assert_eq!(m("TOP.d_i").access, "d_i");
        assert_eq!(m("TOP.d_i").dims, vec![3]);
        assert_eq!(m("TOP.d_i").width, 128);
        assert!(m("TOP.d_i").is_input);
        assert_eq!(m("TOP.u_o").dims, vec![2]);
        assert!(!m("TOP.u_o").is_input);
        assert_eq!(m("TOP.t.d_i").dims, vec![3]);
        assert!(!m("TOP.t.d_i").is_input);
        assert_eq!(
            element_names("TOP.d_i", &m("TOP.d_i").dims),
            ["TOP.d_i[0]", "TOP.d_i[1]", "TOP.d_i[2]"]
        );
        assert_eq!(p.excluded[0].vcd_name, "TOP.deep_i");
    }

    #[test]
    fn parses_a_root_header() {
        let text = r#"
class Vx___024root final : public VerilatedModule {
  public:
    // CELLS
    Vx_p_pkg* __PVT__p_pkg;
    struct {
        VL_IN8(clk_i,0,0);
        VL_INW(big_i,199,0,7);
        CData/*0:0*/ t__DOT__clk_i;
        CData/*0:0*/ __VactContinue;
        SData/*9:0*/ t__DOT__gen_vc__BRA__1__KET____DOT__u__DOT__cnt_q;
        VlUnpacked<CData/*7:0*/, 100> t__DOT__deep_q;
        VlUnpacked<IData/*31:0*/, 8> t__DOT__mem_q;
        double t__DOT__r_q;
        QData/*63:0*/ __Vdly__t__DOT__acc_q;
    };
    VlTriggerVec<1> __VactTriggered;
    Vx__Syms* const vlSymsp;
    static constexpr IData/*31:0*/ t__DOT__u__DOT__Width = 6U;
    static constexpr VlWide<3>/*79:0*/ t__DOT__u__DOT__KEEP = {{
        0x000fffff, 0x00000000, 0x00000000
    }};
    Vx___024root(Vx__Syms* symsp, const char* v__name);
    VL_UNCOPYABLE(Vx___024root);
    void __Vconfigure(bool first);
} VL_ATTR_ALIGNED(VL_CACHE_LINE_BYTES);
"#;
        let p = parse_class(text, "Vx___024root", &Scope::root(), "Vx").unwrap();
        let names: Vec<_> = p.members.iter().map(|m| m.vcd_name.as_str()).collect();
        assert_eq!(
            names,
            [
                "TOP.clk_i",
                "TOP.t.clk_i",
                "TOP.t.gen_vc[1].u.cnt_q",
                "TOP.t.mem_q"
            ]
        );
        assert!(p.members[0].is_input && !p.members[1].is_input);
        assert_eq!(p.members[3].dims, vec![8]);
        let ex: Vec<_> = p.excluded.iter().map(|e| e.vcd_name.as_str()).collect();
        assert_eq!(
            ex,
            [
                "TOP.big_i",
                "TOP.t.deep_q",
                "TOP.t.r_q",
                "TOP.t.u.Width",
                "TOP.t.u.KEEP"
            ]
        );
        assert_eq!(p.excluded[3].reason, PARAMETER);
        assert_eq!(p.excluded[4].reason, PARAMETER);
        assert_eq!(
            p.cells,
            [Cell {
                class: "Vx_p_pkg".into(),
                member: "__PVT__p_pkg".into()
            }]
        );
    }

    #[test]
    fn parses_a_package_cell() {
        let text = r#"
class Vx_p_pkg final : public VerilatedModule {
  public:
    CData/*7:0*/ pkg_var;
    Vx__Syms* const vlSymsp;
    static constexpr IData/*31:0*/ P = 3U;
    Vx_p_pkg(Vx__Syms* symsp, const char* v__name);
} VL_ATTR_ALIGNED(VL_CACHE_LINE_BYTES);
"#;
        let scope = Scope::root().cell("__PVT__p_pkg");
        let p = parse_class(text, "Vx_p_pkg", &scope, "Vx").unwrap();
        assert_eq!(p.members.len(), 1);
        assert_eq!(p.members[0].vcd_name, "TOP.p_pkg.pkg_var");
        assert_eq!(p.members[0].access, "__PVT__p_pkg->pkg_var");
        assert_eq!(p.excluded[0].vcd_name, "TOP.p_pkg.P");
    }

    #[test]
    fn parses_a_module_cell_in_a_cell() {
        let text = r#"
class Vx_router final : public VerilatedModule {
  public:
    // CELLS
    Vx_fifo* __PVT__gen_in__BRA__0__KET____DOT__u_fifo;
    struct {
        VL_IN8(clk_i,0,0);
        VL_OUTW(out_data_o,319,0,10);
        SData/*14:0*/ prio_q;
        CData/*0:0*/ __Vlvbound_he83efe86__0;
        CData/*3:0*/ gen_in__BRA__1__KET____DOT__u_sub__DOT__wptr_q;
    };
} VL_ATTR_ALIGNED(VL_CACHE_LINE_BYTES);
"#;
        let scope = Scope::root()
            .cell("__PVT__top__DOT__gen_r__BRA__0__KET____DOT__u_router")
            .cell("__PVT__u_mid");
        let p = parse_class(text, "Vx_router", &scope, "Vx").unwrap();
        let s = "TOP.top.gen_r[0].u_router.u_mid.";
        let names: Vec<_> = p.members.iter().map(|m| m.vcd_name.clone()).collect();
        assert_eq!(
            names,
            [
                format!("{s}clk_i"),
                format!("{s}prio_q"),
                format!("{s}gen_in[1].u_sub.wptr_q")
            ]
        );
        assert!(
            !p.members[0].is_input,
            "a cell's port is not a top-level input"
        );
        assert_eq!(
            p.members[1].access,
            "__PVT__top__DOT__gen_r__BRA__0__KET____DOT__u_router->__PVT__u_mid->prio_q"
        );
        assert_eq!(p.excluded[0].vcd_name, format!("{s}out_data_o"));
        assert_eq!(
            p.cells[0].member,
            "__PVT__gen_in__BRA__0__KET____DOT__u_fifo"
        );
        assert_eq!(
            scope.cell(&p.cells[0].member).name,
            format!("{s}gen_in[0].u_fifo.")
        );
    }

    #[test]
    fn expands_element_names() {
        assert_eq!(element_names("a", &[]), ["a"]);
        assert_eq!(
            element_names("g", &[2, 2]),
            ["g[0][0]", "g[0][1]", "g[1][0]", "g[1][1]"]
        );
    }
}
