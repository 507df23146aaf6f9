//! `#[derive(vgpu::Uniform)]`: a Rust struct with named fields laid out as the WGSL struct of
//! the same members (use it through `vgpu`, which re-exports it; see `vgpu::Uniform`).
//!
//! The generated impl computes each field's WGSL offset at compile time (`roundUp(AlignOf(T),
//! offset)` after the previous field, as WGSL does), the struct's size and alignment, the shape
//! `vgpu` checks against the reflected WGSL type on the first set, and a writer that copies each
//! field to its offset and zeroes the padding (it writes every byte of the struct). Every field's
//! type must implement `vgpu::Uniform` (scalars, arrays, nested derived structs, glam and mint
//! types behind vgpu's features).
//!
//! It also computes `Uniform::PLAIN`: whether the struct's memory is its WGSL bytes (plain fields,
//! each at its WGSL offset by `offset_of!`, tiling the struct with no padding), in which case
//! vgpu compares and copies values as they lie. The derive emits no `unsafe`: it hands the
//! struct's name and its fields' names and types to vgpu's `__derive::plain_struct!`, which
//! proves at compile time that they are all of the struct's fields with those types and makes
//! the claim only when that proof holds (crates under `#![forbid(unsafe_code)]` derive too, as a
//! doc test of `vgpu::MemoryIsWgsl` checks). `#[repr(packed)]` is refused with a message naming
//! the struct.

use proc_macro::TokenStream;
use quote::{format_ident, quote};
use syn::{Data, DeriveInput, Fields, parse_macro_input, spanned::Spanned};

/// Derives `vgpu::Uniform` for a struct with named fields (see the crate doc).
#[proc_macro_derive(Uniform)]
pub fn derive_uniform(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    match expand(&input) {
        Ok(tokens) => tokens.into(),
        Err(e) => e.to_compile_error().into(),
    }
}

fn expand(input: &DeriveInput) -> syn::Result<proc_macro2::TokenStream> {
    let fields = named_fields(input)?;
    let tokens = FieldTokens::new(&fields);
    let consts = layout_consts(&input.ident, &tokens);
    let uniform = uniform_impl(&input.ident, &tokens);
    Ok(quote! {
        #consts
        #uniform
    })
}

/// The fields of a struct the derive supports: no generic parameters, named fields (matched to
/// WGSL members by name), at least one.
fn named_fields(input: &DeriveInput) -> syn::Result<Vec<&syn::Field>> {
    let name = &input.ident;
    if !input.generics.params.is_empty() {
        return Err(syn::Error::new(
            input.generics.span(),
            "#[derive(vgpu::Uniform)] supports structs without generic parameters",
        ));
    }
    if let Some(packed) = packed_repr(input) {
        return Err(syn::Error::new(
            packed,
            format!(
                "#[derive(vgpu::Uniform)] does not support `#[repr(packed)]` (on `{name}`): a \
                 packed struct's fields may be unaligned, so neither references to them nor \
                 WGSL's alignment hold; remove `packed` (WGSL lays out the struct with its own \
                 offsets anyway)"
            ),
        ));
    }
    let Data::Struct(data) = &input.data else {
        return Err(syn::Error::new(
            name.span(),
            "#[derive(vgpu::Uniform)] supports structs with named fields (WGSL structs)",
        ));
    };
    let Fields::Named(named) = &data.fields else {
        return Err(syn::Error::new(
            data.fields.span(),
            "#[derive(vgpu::Uniform)] needs named fields: they are matched to WGSL members by name",
        ));
    };
    let fields: Vec<_> = named.named.iter().collect();
    if fields.is_empty() {
        return Err(syn::Error::new(
            name.span(),
            "#[derive(vgpu::Uniform)] needs at least one field (WGSL structs have members)",
        ));
    }
    Ok(fields)
}

/// The span of a `packed` or `packed(N)` in the struct's `#[repr(..)]`, if any.
fn packed_repr(input: &DeriveInput) -> Option<proc_macro2::Span> {
    let mut found = None;
    for attr in input.attrs.iter().filter(|a| a.path().is_ident("repr")) {
        // A `repr` rustc refuses is its error, not ours: ignore what does not parse.
        let _ = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("packed") {
                found = Some(meta.path.span());
            }
            if meta.input.peek(syn::token::Paren) {
                // `packed(N)`, `align(N)`: skip the argument.
                let content;
                syn::parenthesized!(content in meta.input);
                let _: proc_macro2::TokenStream = content.parse()?;
            }
            Ok(())
        });
    }
    found
}

/// What the generated code says about each field, in declaration order.
struct FieldTokens<'a> {
    types: Vec<&'a syn::Type>,
    idents: Vec<&'a syn::Ident>,
    /// The names matched against WGSL members (without `r#`).
    names: Vec<String>,
    /// The Rust types as written, for error messages.
    type_names: Vec<String>,
    /// `0..count`, to index the offsets table.
    index: Vec<usize>,
    /// Where each field's padding ends: the next field's offset, or the struct's size.
    gap_ends: Vec<proc_macro2::TokenStream>,
    /// The name of the generated offsets table.
    offsets: proc_macro2::Ident,
}

impl<'a> FieldTokens<'a> {
    fn new(fields: &[&'a syn::Field]) -> Self {
        let count = fields.len();
        let types: Vec<_> = fields.iter().map(|f| &f.ty).collect();
        let idents: Vec<_> = fields.iter().filter_map(|f| f.ident.as_ref()).collect();
        let names = idents
            .iter()
            .map(|i| i.to_string().trim_start_matches("r#").to_owned())
            .collect();
        let type_names = types
            .iter()
            .map(|t| quote!(#t).to_string().replace(" ;", ";").replace(" ,", ","))
            .collect();
        let offsets = format_ident!("__VGPU_UNIFORM_OFFSETS");
        let gap_ends = (0..count)
            .map(|i| {
                if i + 1 < count {
                    let next = i + 1;
                    quote!(Self::#offsets[#next])
                } else {
                    quote!(<Self as ::vgpu::Uniform>::SIZE)
                }
            })
            .collect();
        FieldTokens {
            types,
            idents,
            names,
            type_names,
            index: (0..count).collect(),
            gap_ends,
            offsets,
        }
    }
}

/// The struct's hidden layout constants: each field's WGSL offset, and whether its memory is
/// its WGSL bytes.
fn layout_consts(name: &syn::Ident, f: &FieldTokens<'_>) -> proc_macro2::TokenStream {
    let FieldTokens {
        types,
        idents,
        index,
        offsets,
        ..
    } = f;
    let count = types.len();
    quote! {
        impl #name {
            #[doc(hidden)]
            const #offsets: [usize; #count] = {
                let mut offsets = [0usize; #count];
                let mut at = 0usize;
                #(
                    offsets[#index] = ::vgpu::__derive::round_up(at, <#types as ::vgpu::Uniform>::ALIGN);
                    at = offsets[#index] + <#types as ::vgpu::Uniform>::SIZE;
                )*
                let _ = at;
                offsets
            };

            // Plain when vgpu proves it: plain fields, each at its WGSL offset, tiling the
            // struct with no padding (vgpu's macro makes the claim, and only then).
            #[doc(hidden)]
            const __VGPU_UNIFORM_PLAIN: ::vgpu::MemoryIsWgsl<Self> = ::vgpu::__derive::plain_struct!(
                #name { #( #idents: #types ),* }
            );
        }
    }
}

/// The `vgpu::Uniform` impl: alignment, size, plainness, shape, and the writer that copies each
/// field to its offset and zeroes the padding after it.
fn uniform_impl(name: &syn::Ident, f: &FieldTokens<'_>) -> proc_macro2::TokenStream {
    let FieldTokens {
        types,
        idents,
        names,
        type_names,
        index,
        gap_ends,
        offsets,
    } = f;
    let last = types.len() - 1;
    let last_ty = types[last];
    let name_str = name.to_string();
    quote! {
        impl ::vgpu::Uniform for #name {
            const ALIGN: usize = {
                let mut align = 1usize;
                #( align = ::vgpu::__derive::const_max(align, <#types as ::vgpu::Uniform>::ALIGN); )*
                align
            };
            const SIZE: usize = ::vgpu::__derive::round_up(
                Self::#offsets[#last] + <#last_ty as ::vgpu::Uniform>::SIZE,
                <Self as ::vgpu::Uniform>::ALIGN,
            );
            const PLAIN: ::vgpu::MemoryIsWgsl<Self> = Self::__VGPU_UNIFORM_PLAIN;
            const SHAPE: &'static ::vgpu::__derive::RustShape = &::vgpu::__derive::RustShape::Struct {
                name: #name_str,
                size: <Self as ::vgpu::Uniform>::SIZE,
                fields: &[
                    #(
                        ::vgpu::__derive::RustField {
                            name: #names,
                            rust_type: #type_names,
                            offset: Self::#offsets[#index],
                            shape: <#types as ::vgpu::Uniform>::SHAPE,
                        },
                    )*
                ],
            };

            #[inline]
            fn write_wgsl(&self, dst: &mut [u8]) {
                let dst = &mut dst[..<Self as ::vgpu::Uniform>::SIZE];
                #(
                    <#types as ::vgpu::Uniform>::write_wgsl(
                        &self.#idents,
                        &mut dst[Self::#offsets[#index]
                            ..Self::#offsets[#index] + <#types as ::vgpu::Uniform>::SIZE],
                    );
                    dst[Self::#offsets[#index] + <#types as ::vgpu::Uniform>::SIZE..#gap_ends]
                        .fill(0);
                )*
            }
        }
    }
}
