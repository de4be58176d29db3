//! Microsoft C++ names as the 16-bit compilers (C/C++ 7, Visual C++ 1.x)
//! decorated them, made readable for display.
//!
//! `?Name@Scope@@` + a type code. For functions the code is an access
//! letter whose parity says near or far (`A`..`V` members in near/far
//! pairs, `Y` a near and `Z` a far global function), the `this` qualifier
//! for non-static members, the calling convention (`A` __cdecl, `C`
//! __pascal, `E` __thiscall, `G` __stdcall, `I` __fastcall, each with an
//! exported twin), the return type (`@` for none) and the argument types
//! (`X` alone for none), ended by `@` and `Z`. Pointers carry a
//! qualifier letter: `A`..`D` near, `E`..`H` far, `I`..`L` huge, each
//! plain, const, volatile, const volatile.
//!
//! What is shown is `Scope::Name(arguments)`: enough to tell overloads
//! apart in a stack trace. A name this reader cannot follow shows as its
//! qualified name alone, or, when even that fails, raw.

const MAX_DEPTH: usize = 16;

struct P<'a> {
    s: &'a [u8],
    i: usize,
    names: Vec<String>,
    args: Vec<String>,
    depth: usize,
}

impl P<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }
    fn next(&mut self) -> Option<u8> {
        let c = self.peek()?;
        self.i += 1;
        Some(c)
    }
    fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    /// An identifier ended by `@`, or a digit back-reference.
    fn fragment(&mut self) -> Option<String> {
        let c = self.peek()?;
        if c.is_ascii_digit() {
            self.i += 1;
            return self.names.get(usize::from(c - b'0')).cloned();
        }
        let start = self.i;
        while self.peek()? != b'@' {
            let c = self.next()?;
            if !(c.is_ascii_alphanumeric() || c == b'_' || c == b'$') {
                return None;
            }
        }
        let id = std::str::from_utf8(&self.s[start..self.i])
            .ok()?
            .to_string();
        self.i += 1;
        if id.is_empty() {
            return None;
        }
        if self.names.len() < 10 && !self.names.contains(&id) {
            self.names.push(id.clone());
        }
        Some(id)
    }

    /// Scopes up to the closing `@`, innermost first.
    fn scopes(&mut self) -> Option<Vec<String>> {
        let mut v = Vec::new();
        while !self.eat(b'@') {
            if v.len() > MAX_DEPTH {
                return None;
            }
            v.push(self.fragment()?);
        }
        Some(v)
    }

    fn qualified(&mut self) -> Option<String> {
        let mut v = self.scopes()?;
        v.reverse();
        Some(v.join("::"))
    }

    fn cv(c: u8) -> Option<(&'static str, &'static str)> {
        // (distance, qualifiers)
        Some(match c {
            b'A' => ("near", ""),
            b'B' => ("near", "const "),
            b'C' => ("near", "volatile "),
            b'D' => ("near", "const volatile "),
            b'E' => ("far", ""),
            b'F' => ("far", "const "),
            b'G' => ("far", "volatile "),
            b'H' => ("far", "const volatile "),
            b'I' => ("huge", ""),
            b'J' => ("huge", "const "),
            b'K' => ("huge", "volatile "),
            b'L' => ("huge", "const volatile "),
            _ => return None,
        })
    }

    fn ty(&mut self) -> Option<String> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return None;
        }
        let c = self.next()?;
        let t = match c {
            b'C' => "signed char".into(),
            b'D' => "char".into(),
            b'E' => "unsigned char".into(),
            b'F' => "short".into(),
            b'G' => "unsigned short".into(),
            b'H' => "int".into(),
            b'I' => "unsigned int".into(),
            b'J' => "long".into(),
            b'K' => "unsigned long".into(),
            b'M' => "float".into(),
            b'N' => "double".into(),
            b'O' => "long double".into(),
            b'X' => "void".into(),
            b'P' | b'Q' | b'R' | b'S' | b'A' => {
                let (dist, q) = Self::cv(self.next()?)?;
                let inner = self.ty()?;
                let star = if c == b'A' { "&" } else { "*" };
                let tail = match c {
                    b'Q' => " const",
                    b'R' => " volatile",
                    b'S' => " const volatile",
                    _ => "",
                };
                format!("{q}{inner} {dist} {star}{tail}")
            }
            b'U' | b'V' | b'T' => self.qualified()?,
            b'W' => {
                self.next()?; // the enum's underlying type
                format!("enum {}", self.qualified()?)
            }
            b'?' => {
                // A qualified return or argument: cv letter, then the type.
                Self::cv(self.next()?)?;
                self.ty()?
            }
            _ => return None,
        };
        self.depth -= 1;
        Some(t)
    }

    fn arg(&mut self) -> Option<String> {
        let c = self.peek()?;
        if c.is_ascii_digit() {
            self.i += 1;
            return self.args.get(usize::from(c - b'0')).cloned();
        }
        let start = self.i;
        let t = self.ty()?;
        if self.i - start > 1 && self.args.len() < 10 {
            self.args.push(t.clone());
        }
        Some(t)
    }

    /// The argument list: `X` (void), or types up to `@`, or up to `Z`
    /// after a `...`.
    fn arguments(&mut self) -> Option<String> {
        if self.eat(b'X') {
            return Some("void".into());
        }
        let mut v = Vec::new();
        loop {
            if self.eat(b'@') {
                break;
            }
            if self.eat(b'Z') {
                v.push("...".to_string());
                break;
            }
            if v.len() > 64 {
                return None;
            }
            v.push(self.arg()?);
        }
        Some(v.join(","))
    }
}

fn operator(c: u8, underscore: bool) -> Option<&'static str> {
    Some(if underscore {
        match c {
            b'0' => "operator/=",
            b'1' => "operator%=",
            b'2' => "operator>>=",
            b'3' => "operator<<=",
            b'4' => "operator&=",
            b'5' => "operator|=",
            b'6' => "operator^=",
            b'U' => "operator new[]",
            b'V' => "operator delete[]",
            _ => return None,
        }
    } else {
        match c {
            b'2' => "operator new",
            b'3' => "operator delete",
            b'4' => "operator=",
            b'5' => "operator>>",
            b'6' => "operator<<",
            b'7' => "operator!",
            b'8' => "operator==",
            b'9' => "operator!=",
            b'A' => "operator[]",
            b'C' => "operator->",
            b'D' => "operator*",
            b'E' => "operator++",
            b'F' => "operator--",
            b'G' => "operator-",
            b'H' => "operator+",
            b'I' => "operator&",
            b'J' => "operator->*",
            b'K' => "operator/",
            b'L' => "operator%",
            b'M' => "operator<",
            b'N' => "operator<=",
            b'O' => "operator>",
            b'P' => "operator>=",
            b'Q' => "operator,",
            b'R' => "operator()",
            b'S' => "operator~",
            b'T' => "operator^",
            b'U' => "operator|",
            b'V' => "operator&&",
            b'W' => "operator||",
            b'X' => "operator*=",
            b'Y' => "operator+=",
            b'Z' => "operator-=",
            _ => return None,
        }
    })
}

/// The readable form of a Microsoft-decorated C++ name, or None when `raw`
/// is not one (C names, Pascal names, names this reader cannot follow).
pub fn demangle(raw: &str) -> Option<String> {
    let s = raw.as_bytes();
    if s.first() != Some(&b'?') || s.len() > super::MAX_NAME {
        return None;
    }
    let mut p = P {
        s,
        i: 1,
        names: Vec::new(),
        args: Vec::new(),
        depth: 0,
    };
    // The name: an identifier, or `?` and a special-name code.
    enum Special {
        None,
        Ctor,
        Dtor,
        Op(&'static str),
        Conversion,
    }
    let (name, special) = if p.eat(b'?') {
        let c = p.next()?;
        match c {
            b'0' => (String::new(), Special::Ctor),
            b'1' => (String::new(), Special::Dtor),
            b'B' => (String::new(), Special::Conversion),
            b'_' => {
                let c = p.next()?;
                (String::new(), Special::Op(operator(c, true)?))
            }
            c => (String::new(), Special::Op(operator(c, false)?)),
        }
    } else {
        (p.fragment()?, Special::None)
    };
    let scopes = {
        let mut v = p.scopes()?;
        v.reverse();
        v
    };
    let class = scopes.last().cloned();
    let name = match special {
        Special::None => name,
        Special::Ctor => class.clone()?,
        Special::Dtor => format!("~{}", class.clone()?),
        Special::Op(op) => op.to_string(),
        Special::Conversion => "operator <conversion>".to_string(),
    };
    let mut full = scopes;
    full.push(name);
    let qualified = full.join("::");
    // The signature; when it cannot be read, the qualified name alone.
    let args = (|| {
        let access = p.next()?;
        match access {
            b'A'..=b'V' => {
                let k = access - b'A';
                // Static members (C/D, K/L, S/T) have no `this` qualifier.
                let is_static = matches!(k / 2, 1 | 5 | 9);
                let is_thunk = matches!(k / 2, 3 | 7);
                if is_thunk {
                    return None;
                }
                if !is_static {
                    P::cv(p.next()?)?;
                }
            }
            b'Y' | b'Z' => {}
            _ => return None,
        }
        let cc = p.next()?;
        if !(b'A'..=b'J').contains(&cc) {
            return None;
        }
        if !p.eat(b'@') {
            p.ty()?;
        }
        let a = p.arguments()?;
        Some(a)
    })();
    Some(match args {
        Some(a) => format!("{qualified}({a})"),
        None => qualified,
    })
}

#[cfg(test)]
mod tests {
    use super::demangle;

    #[test]
    fn plain_c_and_pascal_names_are_left_alone() {
        assert_eq!(demangle("_WinMain"), None);
        assert_eq!(demangle("MAINWNDPROC"), None);
        assert_eq!(demangle("?"), None);
    }

    #[test]
    fn functions_members_and_special_names() {
        assert_eq!(demangle("?Add@@YAHHH@Z").as_deref(), Some("Add(int,int)"));
        // A far pascal member: R (public, far), this E, convention C.
        assert_eq!(
            demangle("?OnPaint@CMainWnd@@RECXXZ").as_deref(),
            Some("CMainWnd::OnPaint(void)")
        );
        assert_eq!(
            demangle("??0CFoo@@QAE@XZ").as_deref(),
            Some("CFoo::CFoo(void)")
        );
        assert_eq!(
            demangle("??1CFoo@@REC@XZ").as_deref(),
            Some("CFoo::~CFoo(void)")
        );
        assert_eq!(
            demangle("??4CFoo@@QAEAAV0@ABV0@@Z").as_deref(),
            Some("CFoo::operator=(const CFoo near &)")
        );
        // Far pointers, a class argument, a back-reference to it.
        assert_eq!(
            demangle("?Draw@CShape@@UECXPEVCDC@@0@Z").as_deref(),
            Some("CShape::Draw(CDC far *,CDC far *)")
        );
        assert_eq!(
            demangle("?Print@@ZCXPFDZZ").as_deref(),
            Some("Print(const char far *,...)")
        );
        // Nested scopes, outermost first.
        assert_eq!(
            demangle("?Run@Inner@Outer@@SCXXZ").as_deref(),
            Some("Outer::Inner::Run(void)")
        );
    }

    #[test]
    fn data_and_unreadable_signatures_keep_the_qualified_name() {
        assert_eq!(demangle("?count@CFoo@@2HA").as_deref(), Some("CFoo::count"));
        assert_eq!(demangle("?f@@YA_JXZ").as_deref(), Some("f"));
        // Truncated after the name.
        assert_eq!(demangle("?f@@").as_deref(), Some("f"));
        assert_eq!(demangle("?f@g"), None);
    }

    #[test]
    fn never_panics_on_junk() {
        for s in [
            "??",
            "??_",
            "?0",
            "?@@",
            "?a@0@@YA",
            "?a@@YAPAPAPAPAPAPAPAPAPAPAPAPAPAPAPAPAPAPAPAPAHXZ",
        ] {
            let _ = demangle(s);
        }
    }
}
