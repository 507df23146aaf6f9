//! WGSL pipeline-overridable constants (`override name: T = init;`), as naga reflects them.

use std::fmt;

use crate::shader_error::ShaderError;

/// The scalar type of an `override` (WGSL allows no others).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OverrideType {
    /// `bool`: set with 0 (false) or 1 (true).
    Bool,
    /// `i32`: an integer in `i32`'s range.
    I32,
    /// `u32`: an integer in `u32`'s range.
    U32,
    /// `f32`: a finite value in `f32`'s range.
    F32,
    /// `f16` (with `enable f16;`): a finite value in `f16`'s range (±65504).
    F16,
}

impl OverrideType {
    /// The WGSL spelling (`"f32"`).
    pub fn wgsl(self) -> &'static str {
        match self {
            OverrideType::Bool => "bool",
            OverrideType::I32 => "i32",
            OverrideType::U32 => "u32",
            OverrideType::F32 => "f32",
            OverrideType::F16 => "f16",
        }
    }

    /// Whether `value` is representable in this type (the rule [`Shader::check_constants`]
    /// applies).
    ///
    /// [`Shader::check_constants`]: crate::Shader::check_constants
    pub fn holds(self, value: f64) -> bool {
        match self {
            OverrideType::Bool => value == 0.0 || value == 1.0,
            OverrideType::I32 => {
                value.fract() == 0.0 && (f64::from(i32::MIN)..=f64::from(i32::MAX)).contains(&value)
            }
            OverrideType::U32 => {
                value.fract() == 0.0 && (0.0..=f64::from(u32::MAX)).contains(&value)
            }
            OverrideType::F32 => value.is_finite() && value.abs() <= f64::from(f32::MAX),
            OverrideType::F16 => value.is_finite() && value.abs() <= 65504.0,
        }
    }

    /// What values this type holds, in words (`"an integer in 0..=4294967295"`).
    pub fn expected(self) -> &'static str {
        match self {
            OverrideType::Bool => "0 (false) or 1 (true)",
            OverrideType::I32 => "an integer in -2147483648..=2147483647",
            OverrideType::U32 => "an integer in 0..=4294967295",
            OverrideType::F32 => "a finite number within ±3.4028235e38",
            OverrideType::F16 => "a finite number within ±65504",
        }
    }
}

impl fmt::Display for OverrideType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.wgsl())
    }
}

/// One pipeline-overridable constant of a shader (`@id(n) override name: T = init;`).
///
/// Its value is set per draw or compute with `constants` (keyed by `name`, or by `id` as
/// decimal text); without one the `default` applies, and a `required` override (no
/// initializer) must be given one.
///
/// ```
/// use vgpu_core::{OverrideType, Shader};
///
/// let shader = Shader::new(
///     "scale.wgsl",
///     "override scale: f32 = 2.0;
///      @id(7) override count: u32;
///      @compute @workgroup_size(1) fn cs_main() { _ = scale * f32(count); }",
/// )?;
/// let [scale, count] = shader.overrides() else { panic!() };
/// assert_eq!((scale.name.as_str(), scale.ty, scale.default), ("scale", OverrideType::F32, Some(2.0)));
/// assert_eq!((count.id, count.required), (Some(7), true));
/// # Ok::<(), vgpu_core::ShaderError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct OverrideInfo {
    /// The WGSL name.
    pub name: String,
    /// `@id(n)`, if given.
    pub id: Option<u16>,
    /// The scalar type.
    pub ty: OverrideType,
    /// The initializer's value when it is a literal or a constant expression; `None` when there
    /// is none or it depends on other overrides.
    pub default: Option<f64>,
    /// Whether the override has no initializer (a value must be given).
    pub required: bool,
}

impl OverrideInfo {
    /// The key wgpu's `PipelineCompilationOptions::constants` expects for this override:
    /// WebGPU's rule, the `@id` as decimal text when there is one, else the name.
    pub fn pipeline_key(&self) -> String {
        match self.id {
            Some(id) => id.to_string(),
            None => self.name.clone(),
        }
    }
}

impl fmt::Display for OverrideInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(id) = self.id {
            write!(f, "@id({id}) ")?;
        }
        write!(f, "{}: {}", self.name, self.ty)?;
        match (self.default, self.required) {
            (Some(d), _) => write!(f, " = {d}"),
            (None, true) => f.write_str(" (required)"),
            (None, false) => f.write_str(" = <expression>"),
        }
    }
}

/// Every override of `module`, in declaration order.
pub(crate) fn reflect_overrides(
    label: &str,
    module: &naga::Module,
) -> Result<Vec<OverrideInfo>, ShaderError> {
    let mut out = Vec::with_capacity(module.overrides.len());
    for (handle, o) in module.overrides.iter() {
        let name = o
            .name
            .clone()
            .unwrap_or_else(|| format!("override#{}", handle.index()));
        let ty = match module.types[o.ty].inner {
            naga::TypeInner::Scalar(s) => scalar_type(s),
            _ => None,
        };
        let Some(ty) = ty else {
            return Err(ShaderError::Unsupported {
                label: label.to_owned(),
                item: name,
                what: format!(
                    "an override of type {}",
                    crate::layout::type_name(module, o.ty)
                ),
            });
        };
        out.push(OverrideInfo {
            name,
            id: o.id,
            ty,
            default: o.init.and_then(|e| const_value(module, e, 0)),
            required: o.init.is_none(),
        });
    }
    Ok(out)
}

/// The override type of a naga scalar (`None` for types WGSL overrides cannot have).
fn scalar_type(s: naga::Scalar) -> Option<OverrideType> {
    Some(match s {
        naga::Scalar::BOOL => OverrideType::Bool,
        naga::Scalar::I32 => OverrideType::I32,
        naga::Scalar::U32 => OverrideType::U32,
        naga::Scalar::F32 => OverrideType::F32,
        naga::Scalar::F16 => OverrideType::F16,
        _ => return None,
    })
}

/// The value of global expression `expr` when it is a literal, a zero value or a named
/// constant of one (followed at most a few levels); `None` otherwise.
pub(crate) fn const_value(
    module: &naga::Module,
    expr: naga::Handle<naga::Expression>,
    depth: u32,
) -> Option<f64> {
    if depth > 8 {
        return None;
    }
    match module.global_expressions[expr] {
        naga::Expression::Literal(lit) => literal_value(lit),
        naga::Expression::ZeroValue(_) => Some(0.0),
        naga::Expression::Constant(c) => const_value(module, module.constants[c].init, depth + 1),
        _ => None,
    }
}

/// A scalar literal as `f64` (`None` for 64-bit integers that do not fit exactly, and
/// abstract types naga should have concretized).
fn literal_value(lit: naga::Literal) -> Option<f64> {
    Some(match lit {
        naga::Literal::Bool(b) => f64::from(u8::from(b)),
        naga::Literal::I32(v) => f64::from(v),
        naga::Literal::U32(v) => f64::from(v),
        naga::Literal::F32(v) => f64::from(v),
        naga::Literal::F16(v) => f64::from(f32::from(v)),
        naga::Literal::F64(v) => v,
        naga::Literal::AbstractFloat(v) => v,
        _ => return None,
    })
}
