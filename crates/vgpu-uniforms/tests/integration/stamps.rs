//! Tier 1 (noop device): the memo stamps and their clocks (the "Counters" of the crate docs). A
//! stamp moves only when its owner's slot may; stamp slots are dense and reused only under new
//! stamps; the value clock leaves shared owners out.
#![allow(
    missing_docs,
    clippy::unwrap_used,
    reason = "an unwrap in a test is an assertion; test items need no docs"
)]

use crate::common::{mat, noop_engine, read_slot, snap, submit_empty};
use vgpu_uniforms::{AddressSpace, EngineConfig, OwnerKey};

/// A value set before any memoized operation of the frame goes straight to its home slot: the
/// slot, hence the stamp, is unchanged (memos stay valid), one struct is uploaded. Set again
/// after `memos_in_use`, it is captured into another slot and its stamp moves, for this
/// submission and (bound to a snapshot) the next one.
#[test]
fn stamps_move_only_when_the_slot_may_change() {
    let (ctx, mut engine) = noop_engine(EngineConfig::default());
    let object = engine.create_owner("object", AddressSpace::Uniform);
    let idx = engine.stamp_slot(object).unwrap() as usize;
    engine.set_bytes(object, &mat(1.0)).unwrap();
    engine.begin_submission().unwrap();
    let home = engine.resolve(object).unwrap();
    engine.finish_submission().unwrap();
    submit_empty(&ctx);
    let stamp = engine.stamps()[idx];

    // Set before the frame's passes: home written now, stamp kept.
    engine.begin_submission().unwrap();
    let before = snap(&ctx);
    engine.set_bytes(object, &mat(2.0)).unwrap();
    assert_eq!(engine.stamps()[idx], stamp);
    engine.memos_in_use();
    // A memoized operation binds `home` without resolving; resolving agrees.
    assert_eq!(engine.resolve(object).unwrap(), home);
    // Set after memos are in use: the home slot may be bound, so the value is captured.
    engine.set_bytes(object, &mat(3.0)).unwrap();
    let moved = engine.stamps()[idx];
    assert_ne!(moved, stamp);
    let snapshot = engine.resolve(object).unwrap();
    assert_ne!(snapshot, home);
    engine.finish_submission().unwrap();
    submit_empty(&ctx);
    let d = snap(&ctx) - before;
    assert_eq!(d.slots_captured, 1);
    assert_eq!(read_slot(&ctx, &engine, home, 64), mat(2.0));
    assert_eq!(read_slot(&ctx, &engine, snapshot, 64), mat(3.0));
    // Bound to a snapshot in that submission: the next one binds home again, new stamp.
    assert_ne!(engine.stamps()[idx], moved);
    engine.begin_submission().unwrap();
    assert_eq!(engine.resolve(object).unwrap(), home);
    engine.finish_submission().unwrap();
    submit_empty(&ctx);
    assert_eq!(read_slot(&ctx, &engine, home, 64), mat(3.0));

    // Equal sets and sets between submissions keep the stamp; removal moves it.
    let stamp = engine.stamps()[idx];
    engine.set_bytes(object, &mat(3.0)).unwrap();
    engine.set_bytes(object, &mat(4.0)).unwrap();
    assert_eq!(engine.stamps()[idx], stamp);
    engine.remove_owner(object).unwrap();
    assert_ne!(engine.stamps()[idx], stamp);
}

/// Stamp slots are dense indices given at creation, fixed for an owner's life; a removed
/// owner's slot is reused by the next owner created, but only under a new stamp (renewed at the
/// removal and again at the creation), so a memo taken under the removed owner never matches.
/// Other owners' stamps do not move, and the table stays at the peak number of live owners plus
/// the fixed slot 0, which no owner takes and whose stamp never moves (memos of groups without
/// values use it).
#[test]
fn stamp_slots_are_dense_and_reused_only_under_new_stamps() {
    let (_ctx, mut engine) = noop_engine(EngineConfig::default());
    let (fixed_slot, fixed) = engine.fixed_stamp();
    assert_eq!(fixed_slot, 0);
    assert_eq!(engine.stamps(), &[fixed]);
    let keys: Vec<OwnerKey> = (0..4)
        .map(|i| engine.create_owner(&format!("object {i}"), AddressSpace::Uniform))
        .collect();
    let slots: Vec<u32> = keys
        .iter()
        .map(|&k| engine.stamp_slot(k).unwrap())
        .collect();
    assert_eq!(slots, vec![1, 2, 3, 4]);
    assert_eq!(engine.stamps().len(), 5);
    let before = engine.stamps().to_vec();
    let mut seen: std::collections::HashSet<u64> = before.iter().copied().collect();
    assert_eq!(seen.len(), 5, "stamps are distinct: {before:?}");

    let memo = engine.stamps()[3];
    engine.remove_owner(keys[2]).unwrap();
    assert_eq!(engine.stamp_slot(keys[2]), None);
    let at_removal = engine.stamps()[3];
    assert_ne!(at_removal, memo);
    assert!(seen.insert(at_removal));
    let next = engine.create_owner("replacement", AddressSpace::Storage);
    assert_eq!(engine.stamp_slot(next), Some(3));
    let fresh = engine.stamps()[3];
    assert!(seen.insert(fresh), "a stamp was reused");
    for i in [0, 1, 2, 4] {
        assert_eq!(engine.stamps()[i], before[i]);
    }

    // Churn: one more owner at a time; the table grows to the peak (5 owners), never beyond.
    for i in 0..100 {
        let k = engine.create_owner("churn", AddressSpace::Uniform);
        assert_eq!(engine.stamp_slot(k), Some(5));
        assert!(
            seen.insert(engine.stamps()[5]),
            "round {i}: a stamp was reused"
        );
        engine.remove_owner(k).unwrap();
        assert!(
            seen.insert(engine.stamps()[5]),
            "round {i}: a stamp was reused"
        );
    }
    assert_eq!(engine.stamps().len(), 6);
    assert_eq!(engine.stamps()[0], fixed, "the fixed stamp moved");
    for (i, &k) in keys.iter().enumerate().filter(|&(i, _)| i != 2) {
        assert_eq!(engine.stamp_slot(k), Some(i as u32 + 1));
    }
}

/// The value clock follows the stamps of owners not marked shared only: a shared owner's move
/// leaves it (the stamp clock moves), an unshared owner's moves both, `invalidate_memos` moves
/// both without moving any stamp, and a shared owner's removal moves both; its stamp slot, reused,
/// belongs to an unshared owner again.
#[test]
fn the_value_clock_leaves_shared_owners_out() {
    let (ctx, mut engine) = noop_engine(EngineConfig::default());
    let camera = engine.create_owner("camera", AddressSpace::Uniform);
    engine.mark_shared(camera);
    let object = engine.create_owner("object", AddressSpace::Uniform);
    engine.set_bytes(camera, &mat(1.0)).unwrap();
    engine.set_bytes(object, &mat(1.0)).unwrap();
    engine.begin_submission().unwrap();
    engine.resolve(camera).unwrap();
    engine.resolve(object).unwrap();
    engine.memos_in_use();
    // Set again after memos are in use: each is captured and its stamp moves.
    let (clock, values) = (engine.stamp_clock(), engine.value_clock());
    let camera_slot = engine.stamp_slot(camera).unwrap() as usize;
    let camera_stamp = engine.stamps()[camera_slot];
    engine.set_bytes(camera, &mat(2.0)).unwrap();
    assert_ne!(
        engine.stamps()[camera_slot],
        camera_stamp,
        "the shared owner's stamp moved"
    );
    assert!(engine.stamp_clock() > clock);
    assert_eq!(engine.value_clock(), values, "a shared owner's move");
    let clock = engine.stamp_clock();
    engine.set_bytes(object, &mat(2.0)).unwrap();
    assert!(engine.stamp_clock() > clock);
    assert!(engine.value_clock() > values, "an unshared owner's move");
    engine.finish_submission().unwrap();
    submit_empty(&ctx);

    // An outside change: both clocks move, no stamp does.
    let stamps = engine.stamps().to_vec();
    let (clock, values) = (engine.stamp_clock(), engine.value_clock());
    engine.invalidate_memos();
    assert!(engine.stamp_clock() > clock && engine.value_clock() > values);
    assert_eq!(engine.stamps(), &stamps[..]);

    // The shared owner's removal moves the value clock too; the next owner takes its stamp
    // slot, unshared.
    let values = engine.value_clock();
    engine.remove_owner(camera).unwrap();
    assert!(engine.value_clock() > values);
    let next = engine.create_owner("next", AddressSpace::Uniform);
    assert_eq!(engine.stamp_slot(next).unwrap() as usize, camera_slot);
    engine.set_bytes(next, &mat(1.0)).unwrap();
    engine.begin_submission().unwrap();
    engine.resolve(next).unwrap();
    engine.memos_in_use();
    let values = engine.value_clock();
    engine.set_bytes(next, &mat(2.0)).unwrap();
    assert!(engine.value_clock() > values, "the reused slot is unshared");
    engine.finish_submission().unwrap();
    submit_empty(&ctx);
}
