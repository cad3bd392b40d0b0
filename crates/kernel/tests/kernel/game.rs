//! The decision model: best play worked by hand on small games, the property
//! that one more option never hurts the side that has it, and Monte Carlo
//! following the solved table.

use proptest::prelude::*;
use volley_kernel::check;
use volley_kernel::game::{
    ATTACKER, DEFENDER, Decision, End, Fate, Game, NONE, Objective, OptionValue, Plan, Played, Policy, Purpose, Tie,
};
use volley_kernel::outcome::{Layout, Metric, WINNERS};
use volley_kernel::runner::RunOptions;
use volley_kernel::scenario::{DynScenario, Scenario};

static GAMBLE: Decision = Decision {
    name: "gamble",
    who: "attacker",
    doc: "play safe (a coin: win or go on) or risk a die (1-2 loses, 3-6 wins)",
    options: "safe, risky",
};
static GAMBLE_DECISIONS: &[&Decision] = &[&GAMBLE];

/// The attacker, each step, plays safe (half the time it wins, else the
/// fight goes on) or risky (a die: 1-2 the defender wins, 3-6 the attacker).
struct Gamble {
    steps: u32,
    purpose: Purpose,
    layout: Layout,
}

impl Gamble {
    fn new(steps: u32) -> Gamble {
        Gamble::with_purpose(steps, Purpose::Manoeuvre)
    }

    fn with_purpose(steps: u32, purpose: Purpose) -> Gamble {
        Gamble { steps, purpose, layout: Layout::new(vec![Metric::categories("winner", "who won", WINNERS)]) }
    }
}

impl Game for Gamble {
    type State = ();

    fn layout(&self) -> &Layout {
        &self.layout
    }
    fn start(&self) {}
    fn steps(&self) -> u32 {
        self.steps
    }
    fn step<F: Fate>(&self, _: &mut (), fate: &mut F) -> Option<End> {
        let bold = |policy: Policy| if policy == Policy::Bold { 1 } else { 0 };
        match fate.decide(ATTACKER, &GAMBLE, &[0, 1], &bold) {
            0 => fate.ways(1, 2).then_some(End::Attacker),
            _ => Some(if fate.die(6) <= 2 { End::Defender } else { End::Attacker }),
        }
    }
    fn purpose(&self) -> Purpose {
        self.purpose
    }
    fn code(&self, winner: u8, _: u32, _: &()) -> u64 {
        u64::from(winner)
    }
    fn decisions(&self) -> &'static [&'static Decision] {
        GAMBLE_DECISIONS
    }
    fn describe_state(&self, _: &(), _: u8) -> String {
        "the gamble".into()
    }
    fn describe_option(&self, _: &'static Decision, option: u16) -> String {
        ["safe", "risky"][option as usize].into()
    }
}

fn winner_probabilities(scenario: &dyn DynScenario) -> [f64; 3] {
    let exact = scenario.exact_distribution().expect("solved");
    [0, 1, 2].map(|w| exact.probability("winner", w))
}

fn close(actual: [f64; 3], expected: [f64; 3]) {
    for (a, e) in actual.iter().zip(expected) {
        assert!((a - e).abs() < 1e-12, "{actual:?} != {expected:?}");
    }
}

#[test]
fn best_play_of_the_gamble_worked_by_hand() {
    // Margin: at the last step safe is worth 1/2 - 0 and risky 4/6 - 2/6 = 1/3,
    // so safe; a step earlier safe is worth 1/2 + 1/2 * 1/2 = 3/4: safe twice.
    let margin = Played::new(Gamble::new(2), Plan::BEST);
    close(winner_probabilities(&margin), [0.75, 0.0, 0.25]);
    // Win only: risky at the last step (4/6 > 1/2); a step earlier safe is
    // worth 1/2 + 1/2 * 4/6 = 5/6 against risky's 4/6: safe, then risky.
    let win = Plan { objective: [Objective::Win, Objective::Margin], ..Plan::BEST };
    close(winner_probabilities(&Played::new(Gamble::new(2), win)), [5.0 / 6.0, 1.0 / 6.0, 0.0]);
    // Bold always gambles: 4/6 against 2/6 at the first step.
    let bold = Plan { policy: [Policy::Bold, Policy::Best], ..Plan::BEST };
    close(winner_probabilities(&Played::new(Gamble::new(2), bold)), [4.0 / 6.0, 2.0 / 6.0, 0.0]);
    // --explain: both options at the start, valued under best play afterwards.
    let explained = margin.explain().expect("solved");
    assert_eq!(explained.len(), 1, "the defender takes no decision");
    let first = &explained[0];
    assert_eq!((first.side, first.decision, first.step), ("attacker", "gamble", 1));
    assert_eq!(first.options.iter().map(|o| o.option.as_str()).collect::<Vec<_>>(), ["safe", "risky"]);
    assert!(first.options[0].chosen && !first.options[1].chosen);
    assert!((first.options[0].attacker_wins - 0.75).abs() < 1e-12);
    assert!((first.options[1].attacker_wins - 4.0 / 6.0).abs() < 1e-12);
}

#[test]
fn monte_carlo_follows_the_solved_table_on_any_thread_count() {
    let win = Plan { objective: [Objective::Win, Objective::Margin], ..Plan::BEST };
    let played = Played::new(Gamble::new(3), win);
    check::assert_agrees(&played, 400_000, 7);
    let one = played.simulate(&RunOptions::new(300_000, 11).with_threads(1)).unwrap();
    let two = played.simulate(&RunOptions::new(300_000, 11).with_threads(2)).unwrap();
    assert_eq!(one, two);
}

static STEER: Decision = Decision { name: "steer", who: "either side", doc: "a random game's choice", options: "0..k" };
static STEER_DECISIONS: &[&Decision] = &[&STEER];

/// A random game: at node `n` the side `n % 2` picks one of a few options,
/// then a die of `faces` sides sends the fight to another node or ends it.
#[derive(Clone, Debug)]
struct RandomGame {
    /// `table[node][option][face]`: a node (below `table.len()`), or
    /// `table.len() + end` for an ending (`end` an [`End`]'s code, the
    /// limit excepted).
    table: Vec<Vec<Vec<u8>>>,
    steps: u32,
    purpose: Purpose,
    layout: Layout,
}

impl RandomGame {
    fn new(table: Vec<Vec<Vec<u8>>>, steps: u32) -> RandomGame {
        RandomGame {
            table,
            steps,
            purpose: Purpose::Manoeuvre,
            layout: Layout::new(vec![Metric::categories("winner", "who won", WINNERS)]),
        }
    }

    fn with_purpose(mut self, purpose: Purpose) -> RandomGame {
        self.purpose = purpose;
        self
    }

    /// The same game with the last option of every node of `side` removed
    /// (where it has two or more).
    fn without_last_option(&self, side: u8) -> RandomGame {
        let mut smaller = self.clone();
        for (node, options) in smaller.table.iter_mut().enumerate() {
            if node % 2 == side as usize && options.len() > 1 {
                options.pop();
            }
        }
        smaller
    }
}

impl Game for RandomGame {
    type State = u8;

    fn layout(&self) -> &Layout {
        &self.layout
    }
    fn start(&self) -> u8 {
        0
    }
    fn steps(&self) -> u32 {
        self.steps
    }
    fn step<F: Fate>(&self, state: &mut u8, fate: &mut F) -> Option<End> {
        self.advance(state, fate)
    }
    fn purpose(&self) -> Purpose {
        self.purpose
    }
    fn code(&self, winner: u8, _: u32, _: &u8) -> u64 {
        u64::from(winner)
    }
    fn decisions(&self) -> &'static [&'static Decision] {
        STEER_DECISIONS
    }
    fn describe_state(&self, state: &u8, _: u8) -> String {
        format!("node {state}")
    }
    fn describe_option(&self, _: &'static Decision, option: u16) -> String {
        format!("option {option}")
    }
}

impl RandomGame {
    /// One move of the random game: the side at the node picks, a die sends it on.
    fn advance<F: Fate>(&self, state: &mut u8, fate: &mut F) -> Option<End> {
        let options = &self.table[*state as usize];
        let ids: Vec<u16> = (0..options.len() as u16).collect();
        let last = ids.len() as u16 - 1;
        let heuristic = |policy: Policy| if policy == Policy::Bold { last } else { 0 };
        let chosen = fate.decide(*state % 2, &STEER, &ids, &heuristic);
        let faces = &options[chosen as usize];
        let next = faces[fate.die(faces.len() as u32) as usize - 1];
        if (next as usize) < self.table.len() {
            *state = next;
            None
        } else {
            Some(End::from_code(next - self.table.len() as u8))
        }
    }
}

fn random_game() -> impl Strategy<Value = RandomGame> {
    (2usize..6).prop_flat_map(|nodes| {
        // Every ending but the limit: a side's win, a side leaving, both breaking.
        let target = 0u8..(nodes as u8 + 5);
        let option = proptest::collection::vec(target, 2..4);
        let node = proptest::collection::vec(option, 1..4);
        (proptest::collection::vec(node, nodes), 1u32..6).prop_map(|(table, steps)| RandomGame::new(table, steps))
    })
}

/// The attacker's margin at the start under best play by both.
fn margin(game: RandomGame) -> f64 {
    let [a, d, _] = winner_probabilities(&Played::new(game, Plan::BEST));
    a - d
}

fn purposes() -> impl Strategy<Value = Purpose> {
    prop_oneof![Just(Purpose::Attack), Just(Purpose::Stand), Just(Purpose::Manoeuvre)]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn one_more_option_never_hurts_the_side_that_has_it(game in random_game(), purpose in purposes()) {
        // Under every purpose (under an attack the margin is the attacker's
        // success, less its failure): the tie-breaks by the secondary aims
        // choose among options the purpose values alike, so they never move
        // the purpose's value.
        let game = game.with_purpose(purpose);
        let full = margin(game.clone());
        prop_assert!(full >= margin(game.without_last_option(ATTACKER)) - 1e-9);
        prop_assert!(full <= margin(game.without_last_option(DEFENDER)) + 1e-9);
    }

    #[test]
    fn under_an_attack_nobody_draws(game in random_game()) {
        let [_, _, none] = winner_probabilities(&Played::new(game.with_purpose(Purpose::Attack), Plan::BEST));
        prop_assert!(none.abs() < 1e-12);
    }

    #[test]
    fn the_table_carrying_one_number_takes_what_both_chances_say_is_best(game in random_game(), which in 0usize..4) {
        // Both sides maximising their margins, or the attacker deciding
        // alone: the solver carries one number per state for its table;
        // `explain` carries both sides' chances. The option the table takes
        // at the start must be the best by those chances, and worth what
        // the solved game gives.
        let plan = [
            Plan::BEST,
            Plan { policy: [Policy::Best, Policy::Bold], ..Plan::BEST },
            Plan { policy: [Policy::Best, Policy::Cautious], objective: [Objective::Win, Objective::Margin] },
            Plan { objective: [Objective::Win, Objective::Win], ..Plan::BEST },
        ][which];
        let decides_at_start = game.table[0].len() > 1;
        let played = Played::new(game, plan);
        let [a, d, _] = winner_probabilities(&played);
        let explained = played.explain().unwrap();
        let first = explained.iter().find(|e| e.side == "attacker" && e.step == 1 && e.reached == 1.0);
        prop_assert_eq!(first.is_some(), decides_at_start);
        let Some(first) = first else { return Ok(()) };
        let score = |o: &OptionValue| match plan.objective[0] {
            Objective::Margin => o.attacker_wins - o.defender_wins,
            Objective::Win => o.attacker_wins,
        };
        let chosen: Vec<_> = first.options.iter().filter(|o| o.chosen).collect();
        prop_assert_eq!(chosen.len(), 1);
        let chosen = chosen[0];
        prop_assert!((chosen.attacker_wins - a).abs() < 1e-12 && (chosen.defender_wins - d).abs() < 1e-12);
        for option in &first.options {
            prop_assert!(score(chosen) >= score(option) - 1e-12, "{:?} beats the table's {:?}", option, chosen);
        }
    }

    #[test]
    fn exact_probabilities_sum_to_one_under_every_policy(game in random_game(), a in 0usize..3, d in 0usize..3) {
        let policies = [Policy::Best, Policy::Bold, Policy::Cautious];
        let plan = Plan { policy: [policies[a], policies[d]], ..Plan::BEST };
        let total: f64 = winner_probabilities(&Played::new(game, plan)).iter().sum();
        prop_assert!((total - 1.0).abs() < 1e-12);
    }
}

#[test]
fn monte_carlo_agrees_with_the_exact_law_under_each_policy() {
    // A fixed game with choices for both sides at every node.
    let table = vec![
        vec![vec![1, 2, 3, 4], vec![4, 4, 5, 1]],
        vec![vec![0, 4, 5, 5], vec![2, 2, 4, 6], vec![3, 0, 5, 4]],
        vec![vec![5, 4, 1, 0], vec![6, 6, 4, 3]],
        vec![vec![4, 5, 5, 2], vec![0, 4, 1, 1]],
    ];
    for policy in [Policy::Best, Policy::Bold, Policy::Cautious] {
        for defender in [Policy::Best, Policy::Cautious] {
            let plan = Plan { policy: [policy, defender], ..Plan::BEST };
            let played = Played::new(RandomGame::new(table.clone(), 6), plan);
            check::assert_agrees(&played, 300_000, 3);
            assert_eq!(Scenario::policies(&played).unwrap()[0].played, policy);
        }
    }
    // Ends nobody wins are in the law too.
    let played = Played::new(RandomGame::new(table, 1), Plan::BEST);
    assert!(winner_probabilities(&played)[NONE as usize] > 0.0);
}

/// A random game whose turn is `moves` of its moves: played as one step a
/// turn (`split` false), or as one step a move with the states between
/// moves inside the turn (`split` true, [`Game::starts_turn`]). The two are
/// the same game, so they must give the same laws and the same best play.
#[derive(Clone, Debug)]
struct Turns {
    game: RandomGame,
    moves: u8,
    split: bool,
    /// A step within a turn goes back to the state it left (a broken game).
    looping: bool,
}

impl Game for Turns {
    /// The node, and the moves made this turn.
    type State = (u8, u8);

    fn layout(&self) -> &Layout {
        &self.game.layout
    }
    fn start(&self) -> (u8, u8) {
        (0, 0)
    }
    fn steps(&self) -> u32 {
        self.game.steps
    }
    fn starts_turn(&self, state: &(u8, u8)) -> bool {
        state.1 == 0
    }
    fn step<F: Fate>(&self, state: &mut (u8, u8), fate: &mut F) -> Option<End> {
        if self.looping && state.1 == 1 {
            return None;
        }
        for _ in 0..if self.split { 1 } else { self.moves } {
            if let Some(winner) = self.game.advance(&mut state.0, fate) {
                return Some(winner);
            }
            state.1 = (state.1 + 1) % self.moves;
        }
        None
    }
    fn code(&self, winner: u8, _: u32, _: &(u8, u8)) -> u64 {
        u64::from(winner)
    }
    fn decisions(&self) -> &'static [&'static Decision] {
        STEER_DECISIONS
    }
    fn describe_state(&self, state: &(u8, u8), _: u8) -> String {
        format!("node {} after {} moves", state.0, state.1)
    }
    fn describe_option(&self, _: &'static Decision, option: u16) -> String {
        format!("option {option}")
    }
}

fn turns_game() -> impl Strategy<Value = (RandomGame, u8)> {
    (random_game(), 2u8..4)
}

fn plans() -> Vec<Plan> {
    let win = [Objective::Win, Objective::Margin];
    vec![
        Plan::BEST,
        Plan { objective: win, ..Plan::BEST },
        Plan { policy: [Policy::Bold, Policy::Best], ..Plan::BEST },
        Plan { policy: [Policy::Best, Policy::Cautious], ..Plan::BEST },
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    #[test]
    fn a_turn_split_into_steps_plays_as_the_whole_turn((game, moves) in turns_game()) {
        for plan in plans() {
            let whole = Played::new(Turns { game: game.clone(), moves, split: false, looping: false }, plan);
            let split = Played::new(Turns { game: game.clone(), moves, split: true, looping: false }, plan);
            let (w, s) = (winner_probabilities(&whole), winner_probabilities(&split));
            for (a, b) in w.iter().zip(s) {
                prop_assert!((a - b).abs() < 1e-12, "{:?} != {:?} under {:?}", w, s, plan);
            }
            // A first decision the whole turn's tree reaches for sure is
            // explained alike by the split game (a less likely one may not
            // be: the split game merges equal situations within a turn that
            // the tree keeps apart, so its most likely one may differ).
            let (we, se) = (whole.explain().unwrap(), split.explain().unwrap());
            for a in we.iter().filter(|e| e.reached == 1.0) {
                let b = se.iter().find(|e| e.side == a.side);
                prop_assert!(b.is_some(), "{} decides in the whole turn only", a.side);
                let b = b.unwrap();
                prop_assert_eq!((a.decision, a.step), (b.decision, b.step));
                prop_assert!((a.reached - b.reached).abs() < 1e-12);
                for (x, y) in a.options.iter().zip(&b.options) {
                    prop_assert!((x.attacker_wins - y.attacker_wins).abs() < 1e-12);
                    prop_assert!((x.defender_wins - y.defender_wins).abs() < 1e-12);
                    prop_assert_eq!(x.chosen, y.chosen);
                }
            }
        }
    }
}

#[test]
fn monte_carlo_follows_a_turn_split_into_steps() {
    let table = vec![
        vec![vec![1, 2, 3, 4], vec![4, 4, 5, 1]],
        vec![vec![0, 4, 5, 5], vec![2, 2, 4, 6], vec![3, 0, 5, 4]],
        vec![vec![5, 4, 1, 0], vec![6, 6, 4, 3]],
        vec![vec![4, 5, 5, 2], vec![0, 4, 1, 1]],
    ];
    for plan in plans() {
        let game = Turns { game: RandomGame::new(table.clone(), 3), moves: 3, split: true, looping: false };
        let played = Played::new(game, plan);
        check::assert_agrees(&played, 300_000, 5);
        let one = played.simulate(&RunOptions::new(100_000, 13).with_threads(1)).unwrap();
        let two = played.simulate(&RunOptions::new(100_000, 13).with_threads(2)).unwrap();
        assert_eq!(one, two);
    }
}

#[test]
fn steps_that_loop_within_a_turn_are_refused_by_name() {
    let table = vec![vec![vec![0, 0, 1, 1], vec![0, 2, 3, 4]], vec![vec![1, 0, 2, 3], vec![4, 4, 1, 0]]];
    let game = Turns { game: RandomGame::new(table, 2), moves: 2, split: true, looping: true };
    let played = Played::new(game, Plan::BEST);
    let refused = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| played.exact_distribution()));
    let message = refused.expect_err("a loop within a turn has no solution");
    let message = message.downcast_ref::<String>().expect("a formatted message");
    assert!(message.contains("steps within a turn come back to") && message.contains("after 1 moves"), "{message}");
}

/// Two dice each step: 7 the attacker wins, 8 or more the attacker takes
/// the gamble, 6 or less the fight goes on. `grouped` rolls them as one
/// grouped draw of those three places ([`Fate::draw_grouped`]), otherwise
/// die by die, so that the two must give the same laws.
struct Sevens {
    steps: u32,
    grouped: bool,
    layout: Layout,
}

impl Sevens {
    fn new(steps: u32, grouped: bool) -> Sevens {
        Sevens { steps, grouped, layout: Layout::new(vec![Metric::categories("winner", "who won", WINNERS)]) }
    }
}

/// Where a total of two dice leads: 0 (on), 1 (the attacker wins), 2 (the gamble).
fn sevens_place(total: u32) -> u64 {
    match total {
        7 => 1,
        8.. => 2,
        _ => 0,
    }
}

impl Game for Sevens {
    type State = ();

    fn layout(&self) -> &Layout {
        &self.layout
    }
    fn start(&self) {}
    fn steps(&self) -> u32 {
        self.steps
    }
    fn step<F: Fate>(&self, _: &mut (), fate: &mut F) -> Option<End> {
        let place = if self.grouped {
            let place = fate.draw_grouped(
                |dice| sevens_place(dice.d6() + dice.d6()),
                || vec![(0, 15.0 / 36.0), (1, 6.0 / 36.0), (2, 15.0 / 36.0)],
            );
            // Any value of a group stands for it: here each group has one.
            assert!(place <= 2);
            place
        } else {
            sevens_place(fate.die(6) + fate.die(6))
        };
        match place {
            0 => None,
            1 => Some(End::Attacker),
            // The gamble, a decision below the roll.
            _ => Gamble::new(1).step(&mut (), fate),
        }
    }
    fn code(&self, winner: u8, _: u32, _: &()) -> u64 {
        u64::from(winner)
    }
    fn decisions(&self) -> &'static [&'static Decision] {
        GAMBLE_DECISIONS
    }
    fn describe_state(&self, _: &(), _: u8) -> String {
        "the sevens".into()
    }
    fn describe_option(&self, _: &'static Decision, option: u16) -> String {
        ["safe", "risky"][option as usize].into()
    }
}

#[test]
fn a_grouped_draw_gives_the_laws_of_its_dice_and_monte_carlo_follows_it() {
    // One step by hand under best play (margin): the gamble plays safe
    // (1/2 against 1/3), so the attacker wins 6/36 + 15/36 * 1/2.
    close(winner_probabilities(&Played::new(Sevens::new(1, true), Plan::BEST)), [27.0 / 72.0, 0.0, 45.0 / 72.0]);
    for plan in plans() {
        let grouped = Played::new(Sevens::new(3, true), plan);
        let dice = Played::new(Sevens::new(3, false), plan);
        close(winner_probabilities(&grouped), winner_probabilities(&dice));
        // Sampling under a solved table draws from the grouped law itself
        // where a decision lies below it (the gamble).
        check::assert_agrees(&grouped, 300_000, 17);
        let one = grouped.simulate(&RunOptions::new(100_000, 19).with_threads(1)).unwrap();
        let two = grouped.simulate(&RunOptions::new(100_000, 19).with_threads(2)).unwrap();
        assert_eq!(one, two);
    }
}

/// A walk: from 0 a sure step to 1; from 1, 2 or 3 a coin each turn moves
/// one on (from 3 the attacker wins) or stays. Its turns start from {0},
/// {1}, {1, 2}, {1, 2, 3}, ...: nested only from the second turn, when
/// exploration starts walking from the new states alone.
struct Drift;

impl Game for Drift {
    type State = u8;

    fn layout(&self) -> &Layout {
        static LAYOUT: std::sync::OnceLock<Layout> = std::sync::OnceLock::new();
        LAYOUT.get_or_init(|| Layout::new(vec![Metric::categories("winner", "who won", WINNERS)]))
    }
    fn start(&self) -> u8 {
        0
    }
    fn steps(&self) -> u32 {
        5
    }
    fn step<F: Fate>(&self, state: &mut u8, fate: &mut F) -> Option<End> {
        if *state > 0 && fate.ways(1, 2) {
            if *state == 3 {
                return Some(End::Attacker);
            }
            *state += 1;
        } else if *state == 0 {
            *state = 1;
        }
        None
    }
    fn code(&self, winner: u8, _: u32, _: &u8) -> u64 {
        u64::from(winner)
    }
    fn decisions(&self) -> &'static [&'static Decision] {
        &[]
    }
    fn describe_state(&self, state: &u8, _: u8) -> String {
        format!("at {state}")
    }
    fn describe_option(&self, _: &'static Decision, _: u16) -> String {
        String::new()
    }
}

#[test]
fn layers_that_nest_late_are_explored_whole() {
    // Four coins after the first turn's sure step: the attacker needs
    // three heads, 5 in 16.
    let played = Played::new(Drift, Plan::BEST);
    close(winner_probabilities(&played), [5.0 / 16.0, 0.0, 11.0 / 16.0]);
    check::assert_agrees(&played, 200_000, 23);
}

static PUSH: Decision = Decision {
    name: "push",
    who: "either side",
    doc: "hold (two dice: 10 or more gains a pace) or push (7 or more gains two paces, less loses one)",
    options: "hold, push",
};
static PUSH_DECISIONS: &[&Decision] = &[&PUSH];

/// Where a step of [`Tug`] leads: the winner, if any, and the pace and half.
type TugPlace = (Option<End>, (u8, u8));

/// A tug of war over paces 0 to 6, from 3: each step the side whose half
/// of the turn it is (the attacker, then the defender: two steps a turn)
/// holds or pushes, then rolls two dice ending the step. At 6 the attacker
/// wins, at 0 the defender. `last` rolls them as a [`Fate::draw_last`],
/// otherwise as a [`Fate::draw_grouped`] of the same places, so that the
/// two must give the same laws, to the bit.
struct Tug {
    steps: u32,
    last: bool,
    layout: Layout,
}

impl Tug {
    fn new(steps: u32, last: bool) -> Tug {
        let layout = Layout::new(vec![
            Metric::categories("winner", "who won", WINNERS),
            Metric::integer("pace", "where the rope stands", 0, 6),
        ]);
        Tug { steps, last, layout }
    }

    /// Where a total of two dice leads from `pace` in `half` after `push`.
    fn place(pace: u8, half: u8, push: u16, total: u32) -> TugPlace {
        let gain: i32 = match (push, total) {
            (1, 7..) => 2,
            (1, _) => -1,
            (_, 10..) => 1,
            _ => 0,
        };
        let pace = i32::from(pace) + if half == 0 { gain } else { -gain };
        match pace {
            6.. => (Some(End::Attacker), (6, 0)),
            ..=0 => (Some(End::Defender), (0, 0)),
            _ => (None, (pace as u8, 1 - half)),
        }
    }
}

impl Game for Tug {
    /// The pace, and whose half of the turn it is.
    type State = (u8, u8);

    fn layout(&self) -> &Layout {
        &self.layout
    }
    fn start(&self) -> (u8, u8) {
        (3, 0)
    }
    fn steps(&self) -> u32 {
        self.steps
    }
    fn starts_turn(&self, state: &(u8, u8)) -> bool {
        state.1 == 0
    }
    fn step<F: Fate>(&self, state: &mut (u8, u8), fate: &mut F) -> Option<End> {
        let (pace, half) = *state;
        let bold = |policy: Policy| u16::from(policy == Policy::Bold);
        let push = fate.decide(half, &PUSH, &[0, 1], &bold);
        let sample = |dice: &mut volley_kernel::dice::Dice| Tug::place(pace, half, push, dice.d6() + dice.d6());
        // The places of the 11 totals, merged in the order met.
        let law = || {
            let mut law: Vec<(TugPlace, f64)> = Vec::new();
            for total in 2..=12u32 {
                let p = f64::from(6 - total.abs_diff(7)) / 36.0;
                let place = Tug::place(pace, half, push, total);
                match law.iter_mut().find(|(q, _)| *q == place) {
                    Some(entry) => entry.1 += p,
                    None => law.push((place, p)),
                }
            }
            law
        };
        let (winner, next) = if self.last { fate.draw_last(sample, law) } else { fate.draw_grouped(sample, law) };
        *state = next;
        winner
    }
    fn code(&self, winner: u8, _: u32, state: &(u8, u8)) -> u64 {
        self.layout.encode(&[i64::from(winner), i64::from(state.0)])
    }
    fn decisions(&self) -> &'static [&'static Decision] {
        PUSH_DECISIONS
    }
    fn describe_state(&self, state: &(u8, u8), _: u8) -> String {
        format!("the rope at {}", state.0)
    }
    fn describe_option(&self, _: &'static Decision, option: u16) -> String {
        ["hold", "push"][option as usize].into()
    }
}

#[test]
fn a_last_draw_gives_the_laws_of_the_same_grouped_draw_to_the_bit() {
    // One turn by hand, both sides pushing (7 or more, 21/36, gains two
    // paces; else it loses one): the attacker leaves the rope at 5 (21/36)
    // or 2 (15/36); from 5 the defender's push brings it to 3, or loses a
    // pace to 6 (the attacker wins); from 2 it wins (21/36) or leaves 3.
    let one = Played::new(Tug::new(1, true), Plan { policy: [Policy::Bold, Policy::Bold], ..Plan::BEST });
    let exact = one.exact_distribution().unwrap();
    for (pace, ways) in [(6, 21 * 15), (0, 15 * 21), (3, 21 * 21 + 15 * 15)] {
        assert!((exact.probability("pace", pace) - f64::from(ways) / 1296.0).abs() < 1e-15, "pace {pace}");
    }
    for plan in plans() {
        let last = Played::new(Tug::new(7, true), plan);
        let grouped = Played::new(Tug::new(7, false), plan);
        assert_eq!(last.exact_distribution(), grouped.exact_distribution(), "under {plan:?}");
        assert_eq!(format!("{:?}", last.explain()), format!("{:?}", grouped.explain()), "under {plan:?}");
        // Sampling draws from the law itself where a decision lies below
        // (none does: the draw is last), and follows the solved table.
        check::assert_agrees(&last, 200_000, 23);
        let one = last.simulate(&RunOptions::new(50_000, 29).with_threads(1)).unwrap();
        let two = last.simulate(&RunOptions::new(50_000, 29).with_threads(2)).unwrap();
        assert_eq!(one, two);
    }
}

/// A step that takes a choice after its last draw breaks the promise
/// [`Fate::draw_last`] makes: refused, not enumerated wrongly.
struct AfterLast;

impl Game for AfterLast {
    type State = ();

    fn layout(&self) -> &Layout {
        static LAYOUT: std::sync::OnceLock<Layout> = std::sync::OnceLock::new();
        LAYOUT.get_or_init(|| Layout::new(vec![Metric::categories("winner", "who won", WINNERS)]))
    }
    fn start(&self) {}
    fn steps(&self) -> u32 {
        1
    }
    fn step<F: Fate>(&self, _: &mut (), fate: &mut F) -> Option<End> {
        let (winner, ()) = fate.draw_last(|_| (None, ()), || vec![((None, ()), 0.5), ((Some(End::Attacker), ()), 0.5)]);
        winner.or_else(|| Gamble::new(1).step(&mut (), fate))
    }
    fn code(&self, winner: u8, _: u32, _: &()) -> u64 {
        u64::from(winner)
    }
    fn decisions(&self) -> &'static [&'static Decision] {
        GAMBLE_DECISIONS
    }
    fn describe_state(&self, _: &(), _: u8) -> String {
        "after the last draw".into()
    }
    fn describe_option(&self, _: &'static Decision, option: u16) -> String {
        ["safe", "risky"][option as usize].into()
    }
}

#[test]
fn a_choice_after_a_last_draw_is_refused() {
    let played = Played::new(AfterLast, Plan::BEST);
    let refused = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| played.exact_distribution()));
    let message = refused.expect_err("a decision after the last draw has no enumeration");
    let message =
        message.downcast_ref::<&str>().map(|s| s.to_string()).or_else(|| message.downcast_ref::<String>().cloned());
    assert!(message.as_deref().is_some_and(|m| m.contains("after its last draw")), "{message:?}");
}

// ---------------------------------------------------------------------------
// Purposes: what each side must achieve, and what the turn limit means.

/// The outcome's `ended` metric, by label.
fn ended(scenario: &dyn DynScenario, label: &str) -> f64 {
    let exact = scenario.exact_distribution().expect("solved");
    let index = volley_kernel::game::ENDED.iter().position(|l| *l == label).expect("an ended label");
    exact.probability("ended", index as i64)
}

#[test]
fn an_attack_gives_the_limit_to_the_defender_worked_by_hand() {
    // Two steps. At the last, safe wins 1/2 and otherwise reaches the limit,
    // the defender's under an attack; risky wins 4/6: risky. A step earlier
    // safe is worth 1/2 + 1/2 * 4/6 = 5/6 against risky's 4/6: safe, then
    // risky. Every fight is decided; none reaches the limit.
    let attack = Played::new(Gamble::with_purpose(2, Purpose::Attack), Plan::BEST);
    close(winner_probabilities(&attack), [5.0 / 6.0, 1.0 / 6.0, 0.0]);
    assert!((ended(&attack, "decided") - 1.0).abs() < 1e-12);
    // The same gamble as a manoeuvre (the limit a draw) plays safe twice:
    // a quarter of the fights reach the limit, which the metric says.
    let manoeuvre = Played::new(Gamble::with_purpose(2, Purpose::Manoeuvre), Plan::BEST);
    close(winner_probabilities(&manoeuvre), [0.75, 0.0, 0.25]);
    assert!((ended(&manoeuvre, "limit") - 0.25).abs() < 1e-12);
    check::assert_agrees(&attack, 200_000, 31);
}

static VOLLEY: Decision = Decision {
    name: "volley",
    who: "attacker",
    doc: "fire (a die: 1-3 the attacker breaks, 6 the defender breaks) or leave the fight",
    options: "fire, leave",
};
static VOLLEY_DECISIONS: &[&Decision] = &[&VOLLEY];

/// The attacker, each step, fires (a die: 1-3 the attacker breaks, 6 the
/// defender breaks, 4-5 the fight goes on) or leaves the fight.
struct Volleys {
    steps: u32,
    purpose: Purpose,
    layout: Layout,
}

impl Volleys {
    fn new(steps: u32, purpose: Purpose) -> Volleys {
        Volleys { steps, purpose, layout: Layout::new(vec![Metric::categories("winner", "who won", WINNERS)]) }
    }
}

impl Game for Volleys {
    type State = ();

    fn layout(&self) -> &Layout {
        &self.layout
    }
    fn start(&self) {}
    fn steps(&self) -> u32 {
        self.steps
    }
    fn step<F: Fate>(&self, _: &mut (), fate: &mut F) -> Option<End> {
        match fate.decide(ATTACKER, &VOLLEY, &[0, 1], &|_| 0) {
            0 => match fate.die(6) {
                1..=3 => Some(End::Defender),
                6 => Some(End::Attacker),
                _ => None,
            },
            _ => Some(End::AttackerLeft),
        }
    }
    fn code(&self, winner: u8, _: u32, _: &()) -> u64 {
        u64::from(winner)
    }
    fn purpose(&self) -> Purpose {
        self.purpose
    }
    fn decisions(&self) -> &'static [&'static Decision] {
        VOLLEY_DECISIONS
    }
    fn describe_state(&self, _: &(), _: u8) -> String {
        "the volleys".into()
    }
    fn describe_option(&self, _: &'static Decision, option: u16) -> String {
        ["fire", "leave"][option as usize].into()
    }
}

#[test]
fn a_stand_up_fight_counts_leaving_as_losing_worked_by_hand() {
    // Manoeuvring, a volley is worth 1/6 - 3/6 = -1/3 to the attacker and
    // leaving 0 (a draw): it leaves at once.
    let manoeuvre = Played::new(Volleys::new(2, Purpose::Manoeuvre), Plan::BEST);
    close(winner_probabilities(&manoeuvre), [0.0, 0.0, 1.0]);
    assert!((ended(&manoeuvre, "attacker_left") - 1.0).abs() < 1e-12);
    // Standing, leaving loses (-1): it fires at every step. Two steps:
    // the attacker wins 1/6 + 2/6 * 1/6 = 2/9, the defender 3/6 + 2/6 *
    // 3/6 = 2/3, and 2/6 * 2/6 = 1/9 reach the limit, a draw.
    let stand = Played::new(Volleys::new(2, Purpose::Stand), Plan::BEST);
    close(winner_probabilities(&stand), [2.0 / 9.0, 2.0 / 3.0, 1.0 / 9.0]);
    assert!((ended(&stand, "limit") - 1.0 / 9.0).abs() < 1e-12);
    assert!(ended(&stand, "attacker_left").abs() < 1e-12);
    // Under an attack leaving is the defender's too, and so is the limit.
    let attack = Played::new(Volleys::new(2, Purpose::Attack), Plan::BEST);
    close(winner_probabilities(&attack), [2.0 / 9.0, 7.0 / 9.0, 0.0]);
    check::assert_agrees(&stand, 200_000, 37);
    let one = stand.simulate(&RunOptions::new(100_000, 41).with_threads(1)).unwrap();
    let two = stand.simulate(&RunOptions::new(100_000, 41).with_threads(2)).unwrap();
    assert_eq!(one, two);
}

static FINISH: Decision = Decision {
    name: "finish",
    who: "either side",
    doc: "a choice between options the purpose values alike",
    options: "later, now",
};
static FINISH_DECISIONS: &[&Decision] = &[&FINISH];

/// Ties on the purpose. From the start the attacker wins for sure either
/// way: `later` (listed first) goes on a step, after which it wins anyway;
/// `now` wins at once. In `Defence` (one step) the defender, in an attack
/// it cannot lose, may `hold` (listed first: the limit, its win) or
/// `strike` (it routs the attacker outright).
#[derive(Clone, Copy)]
enum Finish {
    Sooner,
    Defence,
}

impl Game for Finish {
    /// Whether the first step is past.
    type State = bool;

    fn layout(&self) -> &Layout {
        static LAYOUT: std::sync::OnceLock<Layout> = std::sync::OnceLock::new();
        LAYOUT.get_or_init(|| {
            Layout::new(vec![
                Metric::categories("winner", "who won", WINNERS),
                Metric::integer("turns", "the turn it ended", 1, 3),
            ])
        })
    }
    fn start(&self) -> bool {
        false
    }
    fn steps(&self) -> u32 {
        match self {
            Finish::Sooner => 3,
            // One step: holding reaches the limit.
            Finish::Defence => 1,
        }
    }
    fn step<F: Fate>(&self, past: &mut bool, fate: &mut F) -> Option<End> {
        match self {
            Finish::Sooner if *past => Some(End::Attacker),
            Finish::Sooner => {
                *past = true;
                (fate.decide(ATTACKER, &FINISH, &[0, 1], &|_| 0) == 1).then_some(End::Attacker)
            }
            Finish::Defence => (fate.decide(DEFENDER, &FINISH, &[0, 1], &|_| 0) == 1).then_some(End::Defender),
        }
    }
    fn code(&self, winner: u8, steps: u32, _: &bool) -> u64 {
        self.layout().encode(&[i64::from(winner), i64::from(steps)])
    }
    fn purpose(&self) -> Purpose {
        Purpose::Attack
    }
    fn decisions(&self) -> &'static [&'static Decision] {
        FINISH_DECISIONS
    }
    fn describe_state(&self, _: &bool, _: u8) -> String {
        "a sure thing".into()
    }
    fn describe_option(&self, _: &'static Decision, option: u16) -> String {
        match self {
            Finish::Sooner => ["later", "now"][option as usize].into(),
            Finish::Defence => ["hold", "strike"][option as usize].into(),
        }
    }
}

#[test]
fn options_the_purpose_values_alike_are_decided_by_the_secondary_aims_not_their_order() {
    // Both of the attacker's options win for sure; `later` is listed first,
    // yet the fight ends in turn 1, because a side with nothing to lose
    // ends it sooner. --explain says the two tie on the purpose.
    let sooner = Played::new(Finish::Sooner, Plan::BEST);
    close(winner_probabilities(&sooner), [1.0, 0.0, 0.0]);
    let exact = sooner.exact_distribution().unwrap();
    assert!((exact.probability("turns", 1) - 1.0).abs() < 1e-12);
    let explained = sooner.explain().unwrap();
    let options = &explained[0].options;
    assert_eq!(
        options.iter().map(|o| (o.option.as_str(), o.chosen)).collect::<Vec<_>>(),
        [("later", false), ("now", true)]
    );
    assert_eq!((options[0].tie, options[1].tie), (Tie::Purpose, Tie::No));
    assert!((options[0].turns - 1.0).abs() < 1e-12 && options[1].turns.abs() < 1e-12);
    // The defender holds an attack it cannot lose either way; `hold` is
    // listed first, yet it strikes: routing the attacker outright is its
    // secondary aim. The two tie on the purpose (the attacker's success is
    // nil either way), which the winner alone would never show.
    let defence = Played::new(Finish::Defence, Plan::BEST);
    close(winner_probabilities(&defence), [0.0, 1.0, 0.0]);
    assert!((ended(&defence, "decided") - 1.0).abs() < 1e-12);
    let explained = defence.explain().unwrap();
    let options = &explained[0].options;
    assert!(options[1].chosen && options[0].tie == Tie::Purpose);
    assert!((options[1].defender_beats - 1.0).abs() < 1e-12 && options[0].defender_beats.abs() < 1e-12);
}
