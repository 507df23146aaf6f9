//! [`Value`]: a dynamically shaped value for a uniform or storage binding.
//!
//! Build one with the [`value!`](crate::value!) macro, a [`StructBuilder`], or `From`
//! conversions from Rust numbers and arrays. Matrices are column-major: `[[f32; 4]; 4]` is four
//! columns, and a flat `[f32; 16]` lists column 0 first.
//!
//! Numeric runs (`F32s`, `I32s`, `U32s`) hold components flat; they match any vector, matrix or
//! (nested) array of numbers whose total component count is exactly their length. Up to 16
//! `f32` components (a `mat4x4f`) are stored inline, without allocation.

use std::borrow::Cow;
use std::fmt::Write as _;

use smallvec::SmallVec;

/// A struct field name: usually `&'static str` (no allocation), owned when built at run time.
pub type FieldName = Cow<'static, str>;

/// A value for a binding, checked strictly against the WGSL type when packed.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Value {
    /// An `f32` scalar (also accepted for `f16` and `f64`, and for integers when integral).
    F32(f32),
    /// An `f64` scalar (for `f64` fields, or integers and floats when exact enough).
    F64(f64),
    /// An `i32` scalar.
    I32(i32),
    /// A `u32` scalar.
    U32(u32),
    /// Flat `f32` components: a vector, a column-major matrix or an array of numbers.
    F32s(SmallVec<[f32; 16]>),
    /// Flat `i32` components.
    I32s(SmallVec<[i32; 4]>),
    /// Flat `u32` components.
    U32s(SmallVec<[u32; 4]>),
    /// Elements of an array (or the columns of a matrix, the components of a vector).
    Array(Vec<Value>),
    /// Struct fields by name, in any order.
    Struct(Vec<(FieldName, Value)>),
}

impl Value {
    /// A `vec2`.
    pub fn vec2(x: f32, y: f32) -> Self {
        Value::from([x, y])
    }
    /// A `vec3`.
    pub fn vec3(x: f32, y: f32, z: f32) -> Self {
        Value::from([x, y, z])
    }
    /// A `vec4`.
    pub fn vec4(x: f32, y: f32, z: f32, w: f32) -> Self {
        Value::from([x, y, z, w])
    }
    /// A matrix from its columns (column-major).
    pub fn mat<const R: usize, const C: usize>(columns: [[f32; R]; C]) -> Self {
        Value::from(columns)
    }
    /// The 4x4 identity matrix.
    pub fn identity4() -> Self {
        Value::from([
            [1.0f32, 0.0, 0.0, 0.0],
            [0.0, 1.0, 0.0, 0.0],
            [0.0, 0.0, 1.0, 0.0],
            [0.0, 0.0, 0.0, 1.0],
        ])
    }
    /// An array of values.
    pub fn array(elements: impl IntoIterator<Item = impl Into<Value>>) -> Self {
        Value::Array(elements.into_iter().map(Into::into).collect())
    }
    /// A struct builder: `Value::structure().field("a", 1.0).field("b", [0.0, 1.0]).build()`.
    pub fn structure() -> StructBuilder {
        StructBuilder::default()
    }

    /// The field called `name` of a struct value.
    pub fn get(&self, name: &str) -> Option<&Value> {
        match self {
            Value::Struct(fields) => fields.iter().find(|(n, _)| n == name).map(|(_, v)| v),
            _ => None,
        }
    }

    /// Sets (or adds) the field `name` of a struct value; returns false (and does nothing) if
    /// `self` is not a struct.
    pub fn set_field(&mut self, name: impl Into<FieldName>, value: impl Into<Value>) -> bool {
        let Value::Struct(fields) = self else {
            return false;
        };
        let name = name.into();
        let value = value.into();
        match fields.iter_mut().find(|(n, _)| *n == name) {
            Some(slot) => slot.1 = value,
            None => fields.push((name, value)),
        }
        true
    }

    /// A short description of the value's shape for error messages (`f32 1.5`,
    /// `3 f32 components`, `an array of 2 values`, `a struct {a, b}`).
    pub fn describe(&self) -> String {
        match self {
            Value::F32(x) => format!("f32 {}", fmt_float(f64::from(*x))),
            Value::F64(x) => format!("f64 {}", fmt_float(*x)),
            Value::I32(x) => format!("i32 {x}"),
            Value::U32(x) => format!("u32 {x}"),
            Value::F32s(v) => format!("{} f32 components", v.len()),
            Value::I32s(v) => format!("{} i32 components", v.len()),
            Value::U32s(v) => format!("{} u32 components", v.len()),
            Value::Array(v) => format!("an array of {} values", v.len()),
            Value::Struct(fields) => {
                let mut s = String::from("a struct {");
                for (i, (n, _)) in fields.iter().enumerate().take(8) {
                    let _ = write!(s, "{}{n}", if i == 0 { "" } else { ", " });
                }
                if fields.len() > 8 {
                    s.push_str(", …");
                }
                s.push('}');
                s
            }
        }
    }
}

pub(crate) fn fmt_float(x: f64) -> String {
    if x.is_nan() {
        "NaN".to_owned()
    } else if x.is_infinite() {
        if x > 0.0 { "inf" } else { "-inf" }.to_owned()
    } else if x != 0.0 && (x.abs() >= 1e16 || x.abs() < 1e-6) {
        format!("{x:e}")
    } else {
        format!("{x}")
    }
}

/// Builds a struct [`Value`] field by field.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StructBuilder {
    fields: Vec<(FieldName, Value)>,
}

impl StructBuilder {
    /// Adds a field.
    pub fn field(mut self, name: impl Into<FieldName>, value: impl Into<Value>) -> Self {
        self.fields.push((name.into(), value.into()));
        self
    }
    /// The struct value.
    pub fn build(self) -> Value {
        Value::Struct(self.fields)
    }
}

impl From<StructBuilder> for Value {
    fn from(b: StructBuilder) -> Self {
        b.build()
    }
}

impl From<f32> for Value {
    fn from(x: f32) -> Self {
        Value::F32(x)
    }
}
impl From<i32> for Value {
    fn from(x: i32) -> Self {
        Value::I32(x)
    }
}
impl From<u32> for Value {
    fn from(x: u32) -> Self {
        Value::U32(x)
    }
}

macro_rules! numeric_from {
    ($t:ty, $variant:ident) => {
        impl<const N: usize> From<[$t; N]> for Value {
            fn from(v: [$t; N]) -> Self {
                Value::$variant(SmallVec::from_slice(&v))
            }
        }
        impl<const R: usize, const C: usize> From<[[$t; R]; C]> for Value {
            fn from(v: [[$t; R]; C]) -> Self {
                Value::$variant(v.iter().flatten().copied().collect())
            }
        }
        impl From<&[$t]> for Value {
            fn from(v: &[$t]) -> Self {
                Value::$variant(SmallVec::from_slice(v))
            }
        }
        impl From<Vec<$t>> for Value {
            fn from(v: Vec<$t>) -> Self {
                Value::$variant(SmallVec::from_vec(v))
            }
        }
        impl<const N: usize> From<Vec<[$t; N]>> for Value {
            fn from(v: Vec<[$t; N]>) -> Self {
                Value::$variant(v.iter().flatten().copied().collect())
            }
        }
        impl<const N: usize> From<&[[$t; N]]> for Value {
            fn from(v: &[[$t; N]]) -> Self {
                Value::$variant(v.iter().flatten().copied().collect())
            }
        }
    };
}
numeric_from!(f32, F32s);
numeric_from!(i32, I32s);
numeric_from!(u32, U32s);

/// `From<glam::…>` and `From<mint::…>` for [`Value`], through the column arrays.
#[cfg(any(feature = "glam", feature = "mint"))]
macro_rules! from_arrays {
    ($($t:ty, $to:expr;)*) => {
        $(
            impl From<$t> for Value {
                fn from(v: $t) -> Self {
                    let f: fn(&$t) -> _ = $to;
                    Value::from(f(&v))
                }
            }
            impl From<&$t> for Value {
                fn from(v: &$t) -> Self {
                    let f: fn(&$t) -> _ = $to;
                    Value::from(f(v))
                }
            }
        )*
    };
}

#[cfg(feature = "glam")]
from_arrays! {
    glam::Vec2, |v| v.to_array();
    glam::Vec3, |v| v.to_array();
    glam::Vec3A, |v| v.to_array();
    glam::Vec4, |v| v.to_array();
    glam::Quat, |v| v.to_array();
    glam::IVec2, |v| v.to_array();
    glam::IVec3, |v| v.to_array();
    glam::IVec4, |v| v.to_array();
    glam::UVec2, |v| v.to_array();
    glam::UVec3, |v| v.to_array();
    glam::UVec4, |v| v.to_array();
    glam::Mat2, |m| m.to_cols_array_2d();
    glam::Mat3, |m| m.to_cols_array_2d();
    glam::Mat3A, |m| m.to_cols_array_2d();
    glam::Mat4, |m| m.to_cols_array_2d();
}

#[cfg(feature = "mint")]
from_arrays! {
    mint::Vector2<f32>, |v| <[f32; 2]>::from(*v);
    mint::Vector3<f32>, |v| <[f32; 3]>::from(*v);
    mint::Vector4<f32>, |v| <[f32; 4]>::from(*v);
    mint::Point2<f32>, |v| <[f32; 2]>::from(*v);
    mint::Point3<f32>, |v| <[f32; 3]>::from(*v);
    mint::Vector2<i32>, |v| <[i32; 2]>::from(*v);
    mint::Vector3<i32>, |v| <[i32; 3]>::from(*v);
    mint::Vector4<i32>, |v| <[i32; 4]>::from(*v);
    mint::Vector2<u32>, |v| <[u32; 2]>::from(*v);
    mint::Vector3<u32>, |v| <[u32; 3]>::from(*v);
    mint::Vector4<u32>, |v| <[u32; 4]>::from(*v);
    mint::ColumnMatrix2<f32>, |m| <[[f32; 2]; 2]>::from(*m);
    mint::ColumnMatrix3<f32>, |m| <[[f32; 3]; 3]>::from(*m);
    mint::ColumnMatrix4<f32>, |m| <[[f32; 4]; 4]>::from(*m);
}

impl From<Vec<Value>> for Value {
    fn from(v: Vec<Value>) -> Self {
        Value::Array(v)
    }
}
impl<const N: usize> From<[Value; N]> for Value {
    fn from(v: [Value; N]) -> Self {
        Value::Array(v.into())
    }
}
impl From<&Value> for Value {
    fn from(v: &Value) -> Self {
        v.clone()
    }
}

/// Builds a struct [`Value`]: `value! { world: m, color: [1.0, 0.0, 0.0] }`.
///
/// Each field is `name: expr` where `expr: Into<Value>`, or `name: { … }` for a nested struct.
/// Field names are `&'static str` (no allocation for names). Arrays of structs:
/// `lights: [value! { … }, value! { … }]`.
#[macro_export]
macro_rules! value {
    (@fields [$($out:tt)*]) => {
        $crate::Value::Struct(::std::vec![$($out)*])
    };
    (@fields [$($out:tt)*] $name:ident : { $($inner:tt)* } $(, $($rest:tt)*)?) => {
        $crate::value!(@fields [$($out)* (
            ::std::borrow::Cow::Borrowed(::core::stringify!($name)),
            $crate::value!{ $($inner)* }
        ),] $($($rest)*)?)
    };
    (@fields [$($out:tt)*] $name:ident : $val:expr $(, $($rest:tt)*)?) => {
        $crate::value!(@fields [$($out)* (
            ::std::borrow::Cow::Borrowed(::core::stringify!($name)),
            $crate::Value::from($val)
        ),] $($($rest)*)?)
    };
    ($($body:tt)*) => {
        $crate::value!(@fields [] $($body)*)
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_infer_f32_and_i32() {
        assert_eq!(
            Value::from([1.0, 0.0, 0.0]),
            Value::F32s(SmallVec::from_slice(&[1.0, 0.0, 0.0]))
        );
        assert_eq!(Value::from(3), Value::I32(3));
        assert_eq!(Value::from(2.5), Value::F32(2.5));
    }

    #[test]
    fn matrices_flatten_column_major() {
        let m = Value::from([[1.0f32, 2.0], [3.0, 4.0]]);
        assert_eq!(m, Value::F32s(SmallVec::from_slice(&[1.0, 2.0, 3.0, 4.0])));
    }

    #[test]
    fn macro_builds_nested_structs_with_static_names() {
        let v = crate::value! {
            world: [[1.0f32; 4]; 4],
            light: { color: [1.0, 0.5, 0.0], intensity: 2.0 },
            count: 3u32,
        };
        let Value::Struct(fields) = &v else {
            panic!("not a struct: {v:?}")
        };
        assert_eq!(fields.len(), 3);
        assert!(matches!(fields[0].0, Cow::Borrowed("world")));
        assert_eq!(v.get("count"), Some(&Value::U32(3)));
        assert_eq!(
            v.get("light").and_then(|l| l.get("intensity")),
            Some(&Value::F32(2.0))
        );
        assert_eq!(v.get("missing"), None);
    }

    #[test]
    fn builder_and_set_field() {
        let mut v = Value::structure()
            .field("a", 1.0)
            .field("b", [1u32, 2])
            .build();
        assert!(v.set_field("a", 2.0));
        assert!(v.set_field("c", 7));
        assert_eq!(v.get("a"), Some(&Value::F32(2.0)));
        assert_eq!(v.get("c"), Some(&Value::I32(7)));
        let mut not_struct = Value::F32(1.0);
        assert!(!not_struct.set_field("a", 1.0));
    }
}
