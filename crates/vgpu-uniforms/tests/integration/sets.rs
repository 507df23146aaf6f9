//! Tier 1 (noop device): what a set changes. The revision moves exactly when the bytes differ
//! bitwise, through every way of setting (`set_bytes`, `update`, `update_sized`, a range write,
//! `replace_bytes`), and a failed set changes nothing.
#![allow(
    missing_docs,
    clippy::unwrap_used,
    reason = "an unwrap in a test is an assertion; test items need no docs"
)]

use crate::common::{mat, noop_engine, read_slot, submit_empty};
use vgpu_core::ErrorCode as _;
use vgpu_uniforms::{AddressSpace, EngineConfig};

#[test]
fn revision_bumps_exactly_when_bytes_differ_bitwise() {
    let (_ctx, mut engine) = noop_engine(EngineConfig::default());
    let k = engine.create_owner("params", AddressSpace::Uniform);
    assert_eq!(engine.revision(k), Some(0));
    let v = |f: f32| {
        let mut b = [0u8; 16];
        b[..4].copy_from_slice(&f.to_le_bytes());
        b
    };
    assert!(engine.set_bytes(k, &v(1.0)).unwrap());
    assert_eq!(engine.revision(k), Some(1));
    assert!(!engine.set_bytes(k, &v(1.0)).unwrap());
    assert_eq!(engine.revision(k), Some(1));
    // +0.0 and -0.0 compare equal as floats but differ bitwise.
    assert!(engine.set_bytes(k, &v(0.0)).unwrap());
    assert!(engine.set_bytes(k, &v(-0.0)).unwrap());
    assert_eq!(engine.revision(k), Some(3));
    // The same NaN bits are equal.
    let nan = f32::from_bits(0x7fc0_1234);
    assert!(engine.set_bytes(k, &v(nan)).unwrap());
    assert!(!engine.set_bytes(k, &v(nan)).unwrap());
    assert_eq!(engine.revision(k), Some(4));

    // A size mismatch changes nothing and names the owner and both sizes.
    let err = engine.set_bytes(k, &[0u8; 32]).unwrap_err();
    assert_eq!(err.code(), "VGPU-UNIFORMS-SIZE-MISMATCH");
    let msg = err.to_string();
    assert!(msg.starts_with("VGPU-UNIFORMS-SIZE-MISMATCH"), "{msg}");
    assert!(
        msg.contains("params") && msg.contains("16") && msg.contains("32"),
        "{msg}"
    );
    assert_eq!(engine.revision(k), Some(4));
    assert_eq!(engine.bytes(k).unwrap(), &v(nan));

    // update: a failing closure changes nothing, even after writing into the scratch.
    #[derive(Debug)]
    enum PackError {
        Bad,
        Engine(vgpu_uniforms::UniformsError),
    }
    impl From<vgpu_uniforms::UniformsError> for PackError {
        fn from(e: vgpu_uniforms::UniformsError) -> Self {
            PackError::Engine(e)
        }
    }
    let r = engine.update(k, |b| {
        b[0] = 0xAA;
        Err::<(), _>(PackError::Bad)
    });
    assert!(matches!(r, Err(PackError::Bad)));
    assert_eq!(engine.revision(k), Some(4));
    assert_eq!(engine.bytes(k).unwrap(), &v(nan));
    // An update producing the same bytes does not bump; a real change does.
    assert!(!engine.update(k, |_| Ok::<(), PackError>(())).unwrap());
    assert!(
        engine
            .update(k, |b| {
                b[4] = 1;
                Ok::<(), PackError>(())
            })
            .unwrap()
    );
    assert_eq!(engine.revision(k), Some(5));
    assert_eq!(engine.bytes(k).unwrap()[4], 1);

    // update on a never-set owner needs a size; update_sized does the first set.
    let fresh = engine.create_owner("fresh", AddressSpace::Uniform);
    let err = engine
        .update(fresh, |_| Ok::<(), PackError>(()))
        .unwrap_err();
    assert!(matches!(err, PackError::Engine(ref e) if e.code() == "VGPU-UNIFORMS-NEVER-SET"));
    assert!(
        engine
            .update_sized(fresh, 32, |b| {
                b[31] = 9;
                Ok::<(), PackError>(())
            })
            .unwrap()
    );
    assert_eq!(engine.revision(fresh), Some(1));
    assert_eq!(engine.bytes(fresh).unwrap().len(), 32);
    let err = engine
        .update_sized(fresh, 48, |_| Ok::<(), PackError>(()))
        .unwrap_err();
    assert!(matches!(err, PackError::Engine(ref e) if e.code() == "VGPU-UNIFORMS-SIZE-MISMATCH"));
}

/// `write_range_if_changed` (one member written in place) commits as a whole set of the merged
/// bytes does: same bytes, one revision, and a value already bound in the open submission is
/// captured so that the earlier slot keeps the old bytes.
#[test]
fn a_range_write_commits_like_a_set_of_the_merged_value() {
    let (ctx, mut engine) = noop_engine(EngineConfig::default());
    let k = engine.create_owner("object", AddressSpace::Uniform);
    assert_eq!(
        engine.write_range_if_changed(k, 0, &[0; 4]),
        None,
        "never set"
    );
    engine.set_bytes(k, &mat(1.0)).unwrap();
    let rev = engine.revision(k).unwrap();
    assert_eq!(
        engine.write_range_if_changed(k, 16, &mat(1.0)[..16]),
        Some(false),
        "the bytes it holds"
    );
    assert_eq!(engine.revision(k), Some(rev));
    assert_eq!(
        engine.write_range_if_changed(k, 60, &[0; 8]),
        None,
        "past its end"
    );
    assert_eq!(engine.bytes(k).unwrap(), &mat(1.0)[..]);

    engine.begin_submission().unwrap();
    let before = engine.resolve(k).unwrap();
    assert_eq!(
        engine.write_range_if_changed(k, 16, &mat(2.0)[..16]),
        Some(true)
    );
    let mut merged = mat(1.0);
    merged[16..32].copy_from_slice(&mat(2.0)[..16]);
    assert_eq!(engine.bytes(k).unwrap(), &merged[..]);
    assert_eq!(engine.revision(k), Some(rev + 1));
    let after = engine.resolve(k).unwrap();
    assert_ne!(before, after, "bound before the write: captured elsewhere");
    engine.finish_submission().unwrap();
    submit_empty(&ctx);
    assert_eq!(read_slot(&ctx, &engine, before, 64), mat(1.0));
    assert_eq!(read_slot(&ctx, &engine, after, 64), merged);

    // Outside a submission the home slot takes it at the next finish.
    assert_eq!(
        engine.write_range_if_changed(k, 0, &mat(3.0)[..4]),
        Some(true)
    );
    engine.begin_submission().unwrap();
    let home = engine.resolve(k).unwrap();
    engine.finish_submission().unwrap();
    submit_empty(&ctx);
    assert_eq!(read_slot(&ctx, &engine, home, 64), engine.bytes(k).unwrap());
}

/// `replace_bytes` (named `set_bytes_if_set` when this test was written) compares a short value
/// word by word (16 to 64 bytes, whole 16-byte words) and any other length with `bcmp`: for each
/// length, equal bytes are an unchanged set (no revision, counted as unchanged) and a difference
/// in any one byte is a change that the owner's bytes then hold.
#[test]
fn set_bytes_if_set_sees_every_byte_at_every_length() {
    let (_ctx, mut engine) = noop_engine(EngineConfig::default());
    for len in [4usize, 12, 16, 32, 48, 64, 80, 128, 256] {
        let owner = engine.create_owner(&format!("value of {len} bytes"), AddressSpace::Uniform);
        let mut value: Vec<u8> = (0..len).map(|i| (i * 7 + len) as u8).collect();
        assert_eq!(engine.replace_bytes(owner, &value), None, "never set");
        engine.set_bytes(owner, &value).unwrap();
        // The second set keeps a CPU copy, which the later sets compare against.
        assert_eq!(engine.replace_bytes(owner, &value), Some(false), "{len}");
        engine.take_unchanged_sets();
        for at in 0..len {
            let revision = engine.revision(owner).unwrap();
            assert_eq!(engine.replace_bytes(owner, &value), Some(false));
            assert_eq!(engine.take_unchanged_sets(), 1);
            assert_eq!(
                engine.revision(owner),
                Some(revision),
                "{len} bytes, unchanged"
            );
            value[at] ^= 0x80;
            assert_eq!(
                engine.replace_bytes(owner, &value),
                Some(true),
                "{len} bytes, byte {at} changed"
            );
            assert_eq!(engine.take_unchanged_sets(), 0);
            assert_eq!(engine.revision(owner), Some(revision + 1));
            assert_eq!(engine.bytes(owner), Some(&value[..]));
        }
        // Another length is not this owner's value: the caller's full path decides.
        assert_eq!(engine.replace_bytes(owner, &value[..len / 2]), None);
    }
}
