//! 2.1 "Roll for initiative. High-scoring side picks Side A or Side B this
//! turn" in the `firefight` (issue 32 item 3): the roll each turn, the
//! winner's `order` decision, a hand-worked turn that shows who moved
//! first, and mirrored sides winning as often to 1e-9 under best play,
//! where the attacker always moving first did not.

use super::{close, exact};
use volley_kernel::game::{Plan, Played, Purpose};
use volley_kernel::rulesets::brigades::firefight::{FireGame, FirePlayed, FireSide};
use volley_kernel::rulesets::brigades::{FirefightInitiative, Grade, Rules};

/// Rules with no rout hits and no shattering on the rout table, so that a
/// unit's figures show the hits it took and nothing else.
fn no_rout_hits(initiative: FirefightInitiative) -> Rules {
    let mut rules = Rules { firefight_initiative: initiative, ..Rules::default() };
    for h in [
        &mut rules.rout_hits_small_18,
        &mut rules.rout_hits_small_12,
        &mut rules.rout_hits_small_8,
        &mut rules.rout_hits_small_6,
    ] {
        *h = 0;
    }
    rules.rout_shatter_max = -20;
    rules
}

#[test]
fn the_initiative_s_winner_moves_first_under_bold_play() {
    // 8 D muskets each, 10" apart (beyond musket range, 8"), one turn, both
    // bold. Bold takes side A when it wins the initiative; out of reach it
    // closes a whole move, 4" to 6", and does not fire (3.1); the other,
    // moving second and now within reach, holds and fires at far range:
    // 2 dice at 0.2 (9-10), so the mover loses 0, 1 or 2 figures with
    // 0.64, 0.32, 0.04 (100%, 87%, 75% left; no rout hits here). Rolled
    // (2.1), each side is the mover half the time: 100% left with 0.5 +
    // 0.5 * 0.64 = 0.82, 87% with 0.16, 75% with 0.02, either side. With
    // the attacker always first, it always closes under the defender's
    // fire, and the defender never loses a figure.
    let game = |initiative| {
        FireGame::new(&no_rout_hits(initiative), FireSide::new(Grade::D, 8), FireSide::new(Grade::D, 8), 10, 1)
            .unwrap()
            .with_purpose(Purpose::Stand)
    };
    let bold = Plan { policy: [volley_kernel::game::Policy::Bold; 2], ..Plan::BEST };
    for generic in [false, true] {
        let law = |initiative| {
            let game = game(initiative);
            if generic { exact(&Played::new(game, bold)) } else { exact(&FirePlayed::new(game, bold)) }
        };
        let rolled = law(FirefightInitiative::Rolled);
        for side in ["attacker_remaining", "defender_remaining"] {
            close(rolled.probability(side, 100), 0.82);
            close(rolled.probability(side, 87), 0.16);
            close(rolled.probability(side, 75), 0.02);
        }
        let fixed = law(FirefightInitiative::AttackerFirst);
        close(fixed.probability("attacker_remaining", 100), 0.64);
        close(fixed.probability("attacker_remaining", 87), 0.32);
        close(fixed.probability("attacker_remaining", 75), 0.04);
        close(fixed.probability("defender_remaining", 100), 1.0);
    }
}

#[test]
fn mirrored_sides_win_as_often_with_the_initiative_rolled() {
    // Two alike battalions of 8 D muskets, 8" apart, 20 turns, a stand-up
    // fight, best play by both (the dense table): with the initiative
    // rolled each turn the game is its own mirror image, so each side wins
    // as often, to 1e-9 (37.5% each). With the attacker always side A,
    // the defender, seeing every attacker move, wins 39.8% against 33.1%
    // (38.8% against 35.2% with the half-or-whole moves, issue 32).
    let game = |initiative| {
        let rules = Rules { firefight_initiative: initiative, ..Rules::default() };
        FireGame::new(&rules, FireSide::new(Grade::D, 8), FireSide::new(Grade::D, 8), 8, 20)
            .unwrap()
            .with_purpose(Purpose::Stand)
    };
    let chances = |initiative| {
        let law = exact(&FirePlayed::new(game(initiative), Plan::BEST));
        (law.probability("winner", 0), law.probability("winner", 1))
    };
    let (win, loss) = chances(FirefightInitiative::Rolled);
    assert!((win - loss).abs() < 1e-9, "rolled: {win} / {loss}");
    let (old_win, old_loss) = chances(FirefightInitiative::AttackerFirst);
    assert!(old_loss - old_win > 0.03, "attacker first: {old_win} / {old_loss}");
    // The generic solver's game, smaller (5 against 5 from 6" over 8
    // turns), is its own mirror image too.
    let rules = Rules::default();
    let small = FireGame::new(&rules, FireSide::new(Grade::D, 5), FireSide::new(Grade::D, 5), 6, 8)
        .unwrap()
        .with_purpose(Purpose::Stand);
    let law = exact(&Played::new(small, Plan::BEST));
    let (win, loss) = (law.probability("winner", 0), law.probability("winner", 1));
    assert!((win - loss).abs() < 1e-9, "generic: {win} / {loss}");
    assert!(win > 0.01, "generic: {win} / {loss}");
}
