//! Merging tallies is associative and commutative: any reduction order gives
//! identical counts.

use proptest::prelude::*;
use volley_kernel::outcome::Tally;

fn tally_of(space: u64, codes: &[u64]) -> Tally {
    let mut tally = Tally::new(space);
    for &code in codes {
        tally.record(code);
    }
    tally
}

fn merged(mut a: Tally, b: Tally) -> Tally {
    a.merge(b);
    a
}

proptest! {
    #[test]
    fn merge_is_associative_and_commutative(
        a in proptest::collection::vec(0u64..200, 0..50),
        b in proptest::collection::vec(0u64..200, 0..50),
        c in proptest::collection::vec(0u64..200, 0..50),
        space in prop_oneof![Just(100u64), Just(1u64 << 40)],
    ) {
        let (ta, tb, tc) = (tally_of(space, &a), tally_of(space, &b), tally_of(space, &c));
        let left = merged(merged(ta.clone(), tb.clone()), tc.clone());
        let right = merged(ta.clone(), merged(tb.clone(), tc.clone()));
        let swapped = merged(merged(tc, ta), tb);
        prop_assert_eq!(left.counts(), right.counts());
        prop_assert_eq!(left.counts(), swapped.counts());
        let all: Vec<u64> = a.iter().chain(&b).chain(&c).copied().collect();
        prop_assert_eq!(left.counts(), tally_of(space, &all).counts());
        prop_assert_eq!(left.samples(), all.len() as u64);
    }
}
