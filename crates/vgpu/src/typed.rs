//! Typed values: Rust types that know their WGSL layout ([`Uniform`], documented there).

#![expect(
    unsafe_code,
    reason = "plainness is a promise about memory (`MemoryIsWgsl::plain` is unsafe to claim, the \
              impls here claim it for numbers, arrays and math types that are plain, and \
              `plain_struct!` for structs it proves plain), and a plain \
              value's bytes are read in place (`plain_bytes`): the typed set path's compare \
              without a scratch copy"
)]

use std::marker::PhantomData;

use vgpu_core::ScalarType;
use vgpu_core::{RustShape, round_up};

/// Typed values: Rust types that know their WGSL layout.
///
/// `#[derive(vgpu::Uniform)]` on a struct with named fields, or the impls here for scalars,
/// arrays and (behind the `glam` and `mint` features) glam and mint vectors and matrices, give a
/// type its WGSL layout at compile time: each field's offset by the WGSL memory-layout rules, and
/// a writer that puts each field's bytes there. Setting one (`draw.set("object", &object)`,
/// `camera.set(&camera_value)`) checks the Rust type against the binding's reflected WGSL type
/// once per binding (member names, order, types, offsets; `VGPU-SET-TYPED-LAYOUT` names the
/// field, the WGSL type and the Rust type), then writes straight into the value's bytes: no
/// [`Value`](crate::Value) tree, no interpreter, no allocation. A type whose memory already is
/// its WGSL layout ([`Uniform::PLAIN`]: a `#[repr(C)]` struct of `vec4`s, `mat4x4`s, scalars, a
/// `vec3` followed by a scalar, …) is compared and copied as it lies, not even written first.
///
/// ```
/// #[derive(vgpu::Uniform)]
/// struct Light {
///     position: [f32; 3], // vec3<f32>: 12 bytes, aligned to 16
///     intensity: f32,     // at offset 12, as WGSL puts it
///     color: [f32; 4],    // at offset 16
/// }
/// use vgpu::Uniform as _;
/// assert_eq!(<Light as vgpu::Uniform>::SIZE, 32);
/// ```
///
/// The derive takes structs with named fields (they are matched to WGSL members by name), no
/// generic parameters and no `#[repr(packed)]`, whose fields are all `Uniform`; anything else
/// does not compile. The derive's own refusals are `compile_error!`s, which carry no error code
/// for these tests to check (`crates/vgpu/tests/derive_errors.rs` checks their messages):
///
/// ```compile_fail
/// #[derive(vgpu::Uniform)]
/// struct Pair(f32, f32); // tuple struct: no names to match
/// ```
///
/// ```compile_fail
/// #[derive(vgpu::Uniform)]
/// struct Wrapper<T> { value: T } // generic
/// ```
///
/// A field that is not `Uniform` is rustc's E0277:
///
/// ```compile_fail,E0277
/// #[derive(vgpu::Uniform)]
/// struct Flags { enabled: bool } // `bool` is not host-shareable in WGSL
/// ```
///
/// A `Uniform` is set on uniform and storage bindings as a typed value. Derive it for structs
/// with `#[derive(vgpu::Uniform)]`.
///
/// Implementations must write every byte of `dst[..SIZE]` (each part at the offset its `SHAPE`
/// gives, padding as zeros) and nothing past it; the derive and the impls here do.
pub trait Uniform: 'static {
    /// The WGSL layout, checked against the reflected type on the first set.
    const SHAPE: &'static RustShape;
    /// `SizeOf` in WGSL's layout.
    const SIZE: usize;
    /// `AlignOf` in WGSL's layout.
    const ALIGN: usize;
    /// True for scalars (an array of 2, 3 or 4 of them is laid out as a WGSL vector).
    const IS_SCALAR: bool = false;
    /// Whether the value's memory is its WGSL bytes ([`MemoryIsWgsl`]; the type is then
    /// *plain*): sets then compare and copy the value as it lies, with no write into a scratch
    /// copy first. The derive computes it; the default, [`MemoryIsWgsl::NO`], always holds.
    const PLAIN: MemoryIsWgsl<Self> = MemoryIsWgsl::NO;

    /// Writes the value in WGSL's layout into `dst[..Self::SIZE]` (little-endian), padding as
    /// zeros: every byte of it. Panics if `dst` is shorter than `SIZE` (vgpu never passes one).
    fn write_wgsl(&self, dst: &mut [u8]);
}

/// Whether the memory of the [`Uniform`] type `T` is exactly its WGSL bytes (the type is then
/// *plain*): sets then read a value's bytes in place. The token is tied to `T` (invariant in
/// it): a claim for one type is never a claim for another. It is had three ways:
///
/// - [`MemoryIsWgsl::NO`], safe: not known to be plain (always true);
/// - `unsafe` [`MemoryIsWgsl::plain`], a promise about `T`'s memory by the code that makes it
///   (vgpu makes it for numbers, vectors and matrices whose memory it knows);
/// - `#[derive(vgpu::Uniform)]`, which claims plainness only where vgpu proves it at compile time
///   (every field plain, each at its WGSL offset, their sizes adding up to the struct's size:
///   no padding byte), through a vgpu macro whose claim compiles only when that proof holds.
///   Crates under `#![forbid(unsafe_code)]` derive too.
///
/// ```
/// use vgpu::Uniform;
///
/// #[derive(vgpu::Uniform)]
/// #[repr(C)] // Rust may reorder the fields of other structs: then they are not plain
/// struct Object { world: [[f32; 4]; 4], tint: [f32; 4] }
/// assert!(Object::PLAIN.is_plain()); // 80 bytes, laid out as WGSL lays them out
///
/// #[derive(vgpu::Uniform)]
/// #[repr(C)]
/// struct Light { position: [f32; 3], color: [f32; 4] } // `color` at 16 in WGSL, 12 in memory
/// assert!(!Light::PLAIN.is_plain());
/// ```
///
/// ```
/// #![forbid(unsafe_code)]
/// #[derive(vgpu::Uniform)]
/// #[repr(C)]
/// struct Object { world: [[f32; 4]; 4] }
/// assert!(<Object as vgpu::Uniform>::PLAIN.is_plain());
/// ```
///
/// Another type's token is not this type's: a padded type cannot borrow `u32`'s claim (the
/// types differ, E0308), so without `unsafe` it stays [`MemoryIsWgsl::NO`]:
///
/// ```compile_fail,E0308
/// #![forbid(unsafe_code)]
/// use vgpu::{MemoryIsWgsl, Uniform};
/// #[repr(C)]
/// pub struct Padded { pub a: u8, pub b: u32 } // bytes 1..4 are padding
/// impl Uniform for Padded {
///     const SHAPE: &'static vgpu::__derive::RustShape = <[u32; 2] as Uniform>::SHAPE;
///     const SIZE: usize = 8;
///     const ALIGN: usize = 8;
///     const PLAIN: MemoryIsWgsl<Self> = <u32 as Uniform>::PLAIN; // a `u32`'s claim
///     fn write_wgsl(&self, d: &mut [u8]) {
///         d[..4].copy_from_slice(&u32::from(self.a).to_le_bytes());
///         d[4..8].copy_from_slice(&self.b.to_le_bytes());
///     }
/// }
/// ```
///
/// Nor can a derived struct's claim be borrowed:
///
/// ```compile_fail,E0308
/// #![forbid(unsafe_code)]
/// use vgpu::{MemoryIsWgsl, Uniform};
/// #[derive(vgpu::Uniform)]
/// #[repr(C)]
/// struct Plain { a: u32, b: u32 }
/// #[repr(C)]
/// pub struct Padded { pub a: u8, pub b: u32 }
/// impl Uniform for Padded {
///     const SHAPE: &'static vgpu::__derive::RustShape = <Plain as Uniform>::SHAPE;
///     const SIZE: usize = 8;
///     const ALIGN: usize = 4;
///     const PLAIN: MemoryIsWgsl<Self> = <Plain as Uniform>::PLAIN.and(true);
///     fn write_wgsl(&self, d: &mut [u8]) { d[..8].fill(0) }
/// }
/// ```
pub struct MemoryIsWgsl<T: ?Sized> {
    plain: bool,
    /// Invariant in `T`: the claim is about `T` exactly.
    _type: PhantomData<fn(T) -> T>,
}

impl<T: ?Sized> Clone for MemoryIsWgsl<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: ?Sized> Copy for MemoryIsWgsl<T> {}

impl<T: ?Sized> PartialEq for MemoryIsWgsl<T> {
    fn eq(&self, other: &Self) -> bool {
        self.plain == other.plain
    }
}

impl<T: ?Sized> Eq for MemoryIsWgsl<T> {}

impl<T: ?Sized> std::fmt::Debug for MemoryIsWgsl<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "MemoryIsWgsl<{}>({})",
            std::any::type_name::<T>(),
            self.plain
        )
    }
}

impl<T: ?Sized> MemoryIsWgsl<T> {
    /// Not known to be plain: sets write the value through [`Uniform::write_wgsl`].
    pub const NO: MemoryIsWgsl<T> = MemoryIsWgsl {
        plain: false,
        _type: PhantomData,
    };

    /// Plain: a value's bytes are read in place instead of written by [`Uniform::write_wgsl`].
    ///
    /// # Safety
    /// For every value of `T`:
    /// - every byte of it is initialized: no padding byte, no `MaybeUninit`, no union;
    /// - it holds no interior mutability anywhere in its memory: no `UnsafeCell`, `Cell`,
    ///   `RefCell`, atomic, `Mutex` or any type built on them (vgpu reads the bytes through a
    ///   shared reference while other code may hold one too);
    /// - `size_of::<T>()` equals `<T as Uniform>::SIZE`;
    /// - its bytes are what [`Uniform::write_wgsl`] writes for it (each part at the offset WGSL
    ///   gives it, little-endian).
    pub const unsafe fn plain() -> MemoryIsWgsl<T> {
        MemoryIsWgsl {
            plain: true,
            _type: PhantomData,
        }
    }

    /// Whether the type is plain.
    pub const fn is_plain(self) -> bool {
        self.plain
    }

    /// `self` if `condition` holds, else [`MemoryIsWgsl::NO`] (a claim can be withdrawn, never
    /// made).
    pub const fn and(self, condition: bool) -> MemoryIsWgsl<T> {
        MemoryIsWgsl {
            plain: self.plain && condition,
            _type: PhantomData,
        }
    }
}

/// Whether `$s`, a struct whose fields are exactly the ones listed with their types, is plain:
/// computed here, in vgpu, and claimed only when the proof holds, so that any invocation that
/// compiles makes a true claim (the derive expands to it; no `unsafe` in the user's code).
///
/// The proof: the struct expression `$s { field, … }` (in a closure that takes each field as an
/// argument of the listed type) compiles only if the listed fields are all of `$s`'s fields
/// (E0063 names one left out, E0560 one it lacks, E0062 one listed twice), each of the listed
/// type (E0308); each field is plain (its own [`MemoryIsWgsl`]); the fields' sizes add up to
/// `size_of::<$s>()`, so no byte of it is padding (the fields of a struct do not overlap; a
/// union has one field, which then fills it); each field lies at its WGSL offset, computed here
/// from the field order; and `size_of::<$s>()` is its WGSL size. No interior mutability: every
/// field is plain, and a struct adds none of its own.
///
/// Called by hand, it proves the same or does not compile. A padded struct's padding cannot be
/// hidden by leaving a field out of the list (E0063: missing field):
///
/// ```compile_fail,E0063
/// #![forbid(unsafe_code)]
/// #[derive(vgpu::Uniform)]
/// #[repr(C)]
/// struct Padded { a: f32, b: [f32; 4] } // WGSL puts `b` at 16: 12 bytes of padding
/// const CLAIM: vgpu::MemoryIsWgsl<Padded> = vgpu::__derive::plain_struct!(Padded { b: [f32; 4] });
/// ```
///
/// Nor a field's type misnamed (E0308):
///
/// ```compile_fail,E0308
/// #![forbid(unsafe_code)]
/// #[derive(vgpu::Uniform)]
/// #[repr(C)]
/// struct Padded { a: f32, b: [f32; 4] }
/// const CLAIM: vgpu::MemoryIsWgsl<Padded> =
///     vgpu::__derive::plain_struct!(Padded { a: [f32; 4], b: [f32; 4] });
/// ```
///
/// What compiles is the truth: `Padded` is not plain.
///
/// ```
/// #![forbid(unsafe_code)]
/// #[derive(vgpu::Uniform)]
/// #[repr(C)]
/// struct Padded { a: f32, b: [f32; 4] }
/// const CLAIM: vgpu::MemoryIsWgsl<Padded> =
///     vgpu::__derive::plain_struct!(Padded { a: f32, b: [f32; 4] });
/// assert!(!CLAIM.is_plain());
/// ```
#[doc(hidden)]
#[macro_export]
macro_rules! __plain_struct {
    ($s:ident { $($field:ident : $ty:ty),+ $(,)? }) => {{
        const _: fn($($ty),+) -> $s = |$($field),+| $s { $($field),+ };
        let mut proven = true;
        let mut at = 0usize;
        let mut align = 1usize;
        let mut sizes = 0usize;
        $(
            let offset = $crate::__derive::round_up(at, <$ty as $crate::Uniform>::ALIGN);
            proven = proven
                && <$ty as $crate::Uniform>::PLAIN.is_plain()
                && ::core::mem::size_of::<$ty>() == <$ty as $crate::Uniform>::SIZE
                && ::core::mem::offset_of!($s, $field) == offset;
            at = offset + <$ty as $crate::Uniform>::SIZE;
            align = $crate::__derive::const_max(align, <$ty as $crate::Uniform>::ALIGN);
            sizes += ::core::mem::size_of::<$ty>();
        )+
        let size = ::core::mem::size_of::<$s>();
        if proven
            && sizes == size
            && $crate::__derive::round_up(at, align) == size
            && <$s as $crate::Uniform>::SIZE == size
        {
            // SAFETY: the proof above (see the macro's doc): plain fields, no padding, each at
            // its WGSL offset, the struct's size its WGSL size, no interior mutability.
            unsafe { $crate::MemoryIsWgsl::<$s>::plain() }
        } else {
            $crate::MemoryIsWgsl::<$s>::NO
        }
    }};
}

/// The value's WGSL bytes as they lie in memory, for a plain type (see [`MemoryIsWgsl`]).
#[inline(always)]
pub(crate) fn plain_bytes<T: Uniform>(value: &T) -> Option<&[u8]> {
    if T::PLAIN.is_plain() && size_of::<T>() == T::SIZE {
        // SAFETY: `T::PLAIN` promises that every byte of a `T` is initialized (no padding) and
        // is its WGSL bytes; the slice covers the value exactly and borrows it.
        Some(unsafe {
            std::slice::from_raw_parts((value as *const T).cast::<u8>(), size_of::<T>())
        })
    } else {
        None
    }
}

macro_rules! scalar {
    ($t:ty, $s:ident) => {
        impl Uniform for $t {
            const SHAPE: &'static RustShape = &RustShape::Scalar(ScalarType::$s);
            const SIZE: usize = std::mem::size_of::<$t>();
            const ALIGN: usize = std::mem::size_of::<$t>();
            const IS_SCALAR: bool = true;
            const PLAIN: MemoryIsWgsl<Self> = if cfg!(target_endian = "little") {
                // SAFETY: a number has no padding; in little-endian memory it is its WGSL bytes.
                unsafe { MemoryIsWgsl::plain() }
            } else {
                MemoryIsWgsl::NO
            };
            #[inline]
            fn write_wgsl(&self, dst: &mut [u8]) {
                dst[..Self::SIZE].copy_from_slice(&self.to_le_bytes());
            }
        }
    };
}
scalar!(f32, F32);
scalar!(i32, I32);
scalar!(u32, U32);
scalar!(f64, F64);
scalar!(i64, I64);
scalar!(u64, U64);

/// `[T; N]`: a WGSL vector when `T` is a scalar and `N` is 2, 3 or 4, else `array<T, N>`.
impl<T: Uniform, const N: usize> Uniform for [T; N] {
    const SHAPE: &'static RustShape = &RustShape::Array {
        element: T::SHAPE,
        length: N,
        stride: round_up(T::SIZE, T::ALIGN),
    };
    const SIZE: usize = N * round_up(T::SIZE, T::ALIGN);
    const ALIGN: usize = if T::IS_SCALAR && N == 2 {
        2 * T::SIZE
    } else if T::IS_SCALAR && (N == 3 || N == 4) {
        4 * T::SIZE
    } else {
        T::ALIGN
    };
    /// Plain elements `SIZE` bytes apart, as WGSL strides them (a `vec4`, a `mat4x4`, an array
    /// of them; not a `vec3` array or a `mat3x3`, whose columns WGSL pads to 16 bytes).
    const PLAIN: MemoryIsWgsl<Self> = if T::PLAIN.is_plain()
        && round_up(T::SIZE, T::ALIGN) == T::SIZE
        && size_of::<T>() == T::SIZE
    {
        // SAFETY: `N` plain `T`s (initialized, no interior mutability, `size_of` = `SIZE`), one
        // after another with no gap (a Rust array's stride is `size_of::<T>()`), where WGSL
        // strides them `SIZE` apart too: the array's memory is its WGSL bytes, `N * SIZE` long.
        unsafe { MemoryIsWgsl::plain() }
    } else {
        MemoryIsWgsl::NO
    };

    #[inline]
    fn write_wgsl(&self, dst: &mut [u8]) {
        let stride = round_up(T::SIZE, T::ALIGN);
        for (element, out) in self.iter().zip(dst[..Self::SIZE].chunks_exact_mut(stride)) {
            element.write_wgsl(out);
            if stride > T::SIZE {
                out[T::SIZE..].fill(0);
            }
        }
    }
}

/// Writes `columns` column vectors of `R` floats, `stride` bytes apart.
#[cfg(any(feature = "glam", feature = "mint"))]
#[inline]
fn write_columns<const R: usize>(columns: &[[f32; R]], stride: usize, dst: &mut [u8]) {
    for (column, out) in columns.iter().zip(dst.chunks_mut(stride)) {
        for (x, o) in column.iter().zip(out.chunks_exact_mut(4)) {
            o.copy_from_slice(&x.to_le_bytes());
        }
        if out.len() > R * 4 {
            out[R * 4..].fill(0);
        }
    }
}

/// Implements [`Uniform`] for a vector type through a conversion to `[S; N]`.
#[cfg(any(feature = "glam", feature = "mint"))]
macro_rules! vector {
    ($t:ty, $s:ident, $prim:ty, $n:literal, $to:expr) => {
        vector!($t, $s, $prim, $n, $to, MemoryIsWgsl::NO);
    };
    ($t:ty, $s:ident, $prim:ty, $n:literal, $to:expr, plain) => {
        vector!(
            $t,
            $s,
            $prim,
            $n,
            $to,
            if cfg!(target_endian = "little") && std::mem::size_of::<$t>() == $n * 4 {
                // SAFETY: `$t` is `$n` packed `$prim`s in component order (a `repr(C)` struct or
                // a SIMD lane vector of exactly `$n` lanes; the size check refuses anything
                // larger), which in little-endian memory are the bytes the writer writes.
                unsafe { MemoryIsWgsl::plain() }
            } else {
                MemoryIsWgsl::NO
            }
        );
    };
    ($t:ty, $s:ident, $prim:ty, $n:literal, $to:expr, $plain:expr) => {
        impl Uniform for $t {
            const PLAIN: MemoryIsWgsl<Self> = $plain;
            const SHAPE: &'static RustShape = &RustShape::Vector {
                scalar: ScalarType::$s,
                components: $n,
            };
            const SIZE: usize = $n * 4;
            const ALIGN: usize = if $n == 2 { 8 } else { 16 };
            #[inline]
            fn write_wgsl(&self, dst: &mut [u8]) {
                let array: [$prim; $n] = ($to)(self);
                for (x, o) in array.iter().zip(dst[..Self::SIZE].chunks_exact_mut(4)) {
                    o.copy_from_slice(&x.to_le_bytes());
                }
            }
        }
    };
}

/// Implements [`Uniform`] for a square `f32` matrix type through its columns.
#[cfg(any(feature = "glam", feature = "mint"))]
macro_rules! matrix {
    ($t:ty, $n:literal, $to:expr) => {
        matrix!($t, $n, $to, MemoryIsWgsl::NO);
    };
    ($t:ty, $n:literal, $to:expr, plain) => {
        matrix!(
            $t,
            $n,
            $to,
            if cfg!(target_endian = "little")
                && std::mem::size_of::<$t>() == $n * $n * 4
                && $n * 4 == if $n == 2 { 8 } else { 16 }
            {
                // SAFETY: `$t` is `$n` columns of `$n` packed `f32`s, column after column, with
                // no padding (the size check refuses anything larger); WGSL strides these
                // columns at their size (`mat2x2f`, `mat4x4f`), so little-endian memory is what
                // the writer writes.
                unsafe { MemoryIsWgsl::plain() }
            } else {
                MemoryIsWgsl::NO
            }
        );
    };
    ($t:ty, $n:literal, $to:expr, $plain:expr) => {
        impl Uniform for $t {
            const PLAIN: MemoryIsWgsl<Self> = $plain;
            const SHAPE: &'static RustShape = &RustShape::Matrix {
                scalar: ScalarType::F32,
                columns: $n,
                rows: $n,
            };
            const SIZE: usize = $n * Self::ALIGN;
            const ALIGN: usize = if $n == 2 { 8 } else { 16 };
            #[inline]
            fn write_wgsl(&self, dst: &mut [u8]) {
                let columns: [[f32; $n]; $n] = ($to)(self);
                write_columns(&columns, Self::ALIGN, &mut dst[..Self::SIZE]);
            }
        }
    };
}

#[cfg(feature = "glam")]
mod glam_impls {
    use super::*;

    vector!(
        glam::Vec2,
        F32,
        f32,
        2,
        |v: &glam::Vec2| v.to_array(),
        plain
    );
    vector!(
        glam::Vec3,
        F32,
        f32,
        3,
        |v: &glam::Vec3| v.to_array(),
        plain
    );
    vector!(glam::Vec3A, F32, f32, 3, |v: &glam::Vec3A| v.to_array());
    vector!(
        glam::Vec4,
        F32,
        f32,
        4,
        |v: &glam::Vec4| v.to_array(),
        plain
    );
    vector!(
        glam::Quat,
        F32,
        f32,
        4,
        |v: &glam::Quat| v.to_array(),
        plain
    );
    vector!(
        glam::IVec2,
        I32,
        i32,
        2,
        |v: &glam::IVec2| v.to_array(),
        plain
    );
    vector!(
        glam::IVec3,
        I32,
        i32,
        3,
        |v: &glam::IVec3| v.to_array(),
        plain
    );
    vector!(
        glam::IVec4,
        I32,
        i32,
        4,
        |v: &glam::IVec4| v.to_array(),
        plain
    );
    vector!(
        glam::UVec2,
        U32,
        u32,
        2,
        |v: &glam::UVec2| v.to_array(),
        plain
    );
    vector!(
        glam::UVec3,
        U32,
        u32,
        3,
        |v: &glam::UVec3| v.to_array(),
        plain
    );
    vector!(
        glam::UVec4,
        U32,
        u32,
        4,
        |v: &glam::UVec4| v.to_array(),
        plain
    );
    matrix!(glam::Mat2, 2, |m: &glam::Mat2| m.to_cols_array_2d(), plain);
    matrix!(glam::Mat3, 3, |m: &glam::Mat3| m.to_cols_array_2d());
    matrix!(glam::Mat3A, 3, |m: &glam::Mat3A| m.to_cols_array_2d());
    matrix!(glam::Mat4, 4, |m: &glam::Mat4| m.to_cols_array_2d(), plain);
}

#[cfg(feature = "mint")]
mod mint_impls {
    use super::*;

    vector!(
        mint::Vector2<f32>,
        F32,
        f32,
        2,
        |v: &mint::Vector2<f32>| { (*v).into() },
        plain
    );
    vector!(
        mint::Vector3<f32>,
        F32,
        f32,
        3,
        |v: &mint::Vector3<f32>| { (*v).into() },
        plain
    );
    vector!(
        mint::Vector4<f32>,
        F32,
        f32,
        4,
        |v: &mint::Vector4<f32>| { (*v).into() },
        plain
    );
    vector!(
        mint::Point2<f32>,
        F32,
        f32,
        2,
        |v: &mint::Point2<f32>| (*v).into(),
        plain
    );
    vector!(
        mint::Point3<f32>,
        F32,
        f32,
        3,
        |v: &mint::Point3<f32>| (*v).into(),
        plain
    );
    vector!(
        mint::Quaternion<f32>,
        F32,
        f32,
        4,
        |q: &mint::Quaternion<f32>| [q.v.x, q.v.y, q.v.z, q.s],
        plain
    );
    vector!(
        mint::Vector2<i32>,
        I32,
        i32,
        2,
        |v: &mint::Vector2<i32>| { (*v).into() },
        plain
    );
    vector!(
        mint::Vector3<i32>,
        I32,
        i32,
        3,
        |v: &mint::Vector3<i32>| { (*v).into() },
        plain
    );
    vector!(
        mint::Vector4<i32>,
        I32,
        i32,
        4,
        |v: &mint::Vector4<i32>| { (*v).into() },
        plain
    );
    vector!(
        mint::Vector2<u32>,
        U32,
        u32,
        2,
        |v: &mint::Vector2<u32>| { (*v).into() },
        plain
    );
    vector!(
        mint::Vector3<u32>,
        U32,
        u32,
        3,
        |v: &mint::Vector3<u32>| { (*v).into() },
        plain
    );
    vector!(
        mint::Vector4<u32>,
        U32,
        u32,
        4,
        |v: &mint::Vector4<u32>| { (*v).into() },
        plain
    );
    matrix!(
        mint::ColumnMatrix2<f32>,
        2,
        |m: &mint::ColumnMatrix2<f32>| {
            let c: [[f32; 2]; 2] = (*m).into();
            c
        },
        plain
    );
    matrix!(mint::ColumnMatrix3<f32>, 3, |m: &mint::ColumnMatrix3<
        f32,
    >| {
        let c: [[f32; 3]; 3] = (*m).into();
        c
    });
    matrix!(
        mint::ColumnMatrix4<f32>,
        4,
        |m: &mint::ColumnMatrix4<f32>| {
            let c: [[f32; 4]; 4] = (*m).into();
            c
        },
        plain
    );
}
