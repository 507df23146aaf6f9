//! [`TypedRef`]: a borrowed typed value with its Rust type erased, as a `BindingArg` and the state
//! layer carry it; and [`CheckedType`], the Rust type a binding last checked, in 8 bytes.

use std::any::TypeId;

use vgpu_core::RustShape;

use crate::typed::{Uniform, plain_bytes};

/// A typed value, type-erased for [`BindingArg`](crate::BindingArg) and the state layer.
pub(crate) trait ErasedUniform {
    fn shape(&self) -> &'static RustShape;
    fn rust_type(&self) -> &'static str;
    fn type_key(&self) -> TypeId;
    /// `TypeId::of` of the type, as a function (8 bytes where the id takes 16).
    fn type_id_fn(&self) -> fn() -> TypeId;
    fn size(&self) -> usize;
    fn write(&self, dst: &mut [u8]);
    /// The value's bytes as they lie, for a plain type (see [`MemoryIsWgsl`](crate::MemoryIsWgsl)).
    fn plain(&self) -> Option<&[u8]>;
}

impl<T: Uniform> ErasedUniform for T {
    fn shape(&self) -> &'static RustShape {
        T::SHAPE
    }
    fn rust_type(&self) -> &'static str {
        std::any::type_name::<T>()
    }
    fn type_key(&self) -> TypeId {
        TypeId::of::<T>()
    }
    fn type_id_fn(&self) -> fn() -> TypeId {
        TypeId::of::<T>
    }
    fn size(&self) -> usize {
        T::SIZE
    }
    #[inline]
    fn write(&self, dst: &mut [u8]) {
        self.write_wgsl(dst);
    }
    #[inline]
    fn plain(&self) -> Option<&[u8]> {
        plain_bytes(self)
    }
}

/// The Rust type last checked against a binding's WGSL type, or none, in 8 bytes (a binding's
/// content stays 24): the `TypeId::of` function of the type, compared by address and, when the
/// addresses differ (one type's function may exist at several addresses), by the id it returns.
/// Two types' functions never share an address: they return different constants.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CheckedType(Option<fn() -> TypeId>);

impl CheckedType {
    /// No type checked yet.
    pub(crate) fn none() -> Self {
        CheckedType(None)
    }

    /// `value`'s Rust type, checked.
    pub(crate) fn of(value: &TypedRef<'_>) -> Self {
        CheckedType(Some(value.0.type_id_fn()))
    }

    /// Whether `value` is of the checked type.
    #[inline]
    pub(crate) fn holds(self, value: &TypedRef<'_>) -> bool {
        let Some(checked) = self.0 else {
            return false;
        };
        let f = value.0.type_id_fn();
        std::ptr::fn_addr_eq(checked, f) || checked() == f()
    }
}

/// A borrowed typed value (what `BindingArg::Typed` holds): any [`Uniform`].
#[derive(Clone, Copy)]
pub struct TypedRef<'a>(pub(crate) &'a dyn ErasedUniform);

impl<'a> TypedRef<'a> {
    /// Borrows `value`.
    pub fn new<T: Uniform>(value: &'a T) -> Self {
        TypedRef(value)
    }

    /// The Rust type's name.
    pub fn rust_type(&self) -> &'static str {
        self.0.rust_type()
    }

    /// Its size in WGSL's layout.
    pub fn size(&self) -> usize {
        self.0.size()
    }

    pub(crate) fn shape(&self) -> &'static RustShape {
        self.0.shape()
    }

    pub(crate) fn type_key(&self) -> TypeId {
        self.0.type_key()
    }

    /// Writes the value's WGSL bytes into `dst` (exactly `size()` bytes).
    pub(crate) fn write(&self, dst: &mut [u8]) {
        self.0.write(dst);
    }

    /// The value's WGSL bytes as they lie in memory, for a plain type (see [`MemoryIsWgsl`](crate::MemoryIsWgsl)).
    pub(crate) fn plain(&self) -> Option<&[u8]> {
        self.0.plain()
    }
}

impl std::fmt::Debug for TypedRef<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "TypedRef({})", self.rust_type())
    }
}
