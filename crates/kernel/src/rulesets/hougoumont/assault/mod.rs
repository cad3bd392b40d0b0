//! An assault (2, 3, 4, 5) as a game: attackers advance from a distance under
//! the defenders' artillery and musketry, firing back, halt where they choose,
//! charge the last stretch, and melee; a side that fails morale retreats, may
//! rally and come back, until one side leaves the field. `farm_assault` is
//! the Hougoumont case: defenders behind walls and in buildings, and the
//! attackers' own guns trying to penetrate the buildings and set them alight.
//!
//! # The position and the side outside it
//!
//! One side holds the position (at the start the defenders) and the other is
//! outside it, at a distance (at the start the attackers). A holder that
//! fails morale retreats 8 inches from the position (5) and the side outside
//! takes it (interpretation `defender_failure = retreat_and_rally`): the two
//! exchange places, and the side now outside is retreating. It tries to rally
//! in the next Give Orders phase; once rallied it "can act normally": it
//! decides, as the attackers did, whether to stay off or come back and charge
//! to retake the position ([`RETAKE`] for the defenders; the attackers, thrown
//! out of a position they took, take [`ADVANCE`] again). Only the position's
//! holder has its cover (walls and buildings in `farm_assault`), and only
//! while the defenders hold it do their guns and the attackers' battery fire:
//! the defenders' guns, emplaced in the position, are left there when they
//! retreat (artillery moves 4 inches, a retreat 8), and the battery does not
//! fire on buildings its own men hold (3.3: no fire into one's own men).
//!
//! A holder broken by fire at a distance leaves the position to the side
//! outside, the only one not in retreat: by default (`handover = at_once`)
//! it is taken at once, the retreating side 8 inches beyond it; under
//! `walk_in` the position stays empty until the side outside walks in at its
//! move, or the holders rally and walk back first (as after both sides
//! break, below). Under `defender_failure = attacker_wins` the defenders' first
//! failure ends the assault as the attackers' win (the reading before issue
//! 16; see the ruleset note).
//!
//! # Both sides broken
//!
//! When the holders fail morale while the side outside also fails or is
//! already retreating, 5 gives each failed unit the same course: it "must
//! immediately move 8 inches away from the enemy", tries to rally "in the
//! next Give Orders phase" and, rallied, "can act normally"; nothing there
//! ends the fight. Under `both_break = play_on` (default) the assault plays
//! it (issue 34):
//!
//! - **Distances.** Each side retreats away from the other, so on its own
//!   side of the position: the holders 8 inches behind it, towards their
//!   table edge; the side outside 8 inches farther out if it broke now (in
//!   contact, 8 inches from the position), or where its retreat already took
//!   it. The position is empty. A retreat past a side's table edge leaves
//!   the field (the holders' edge is `edge` inches behind the position for
//!   the defenders, the attackers' own edge for attackers who held it): one
//!   side gone, the other wins; both in the same phase, no one does.
//! - **Rally order.** Both roll in the same Give Orders phase, before any
//!   movement (1 puts Give Orders first; 5 gives each its roll there), each
//!   against its own need; one that fails retreats 8 inches more.
//! - **Walking back.** In Movement a rallied side walks back towards the
//!   position its full move (2); the first to reach it holds it: the side
//!   that needs the smaller part of its move, and on equal parts the side
//!   that held it last (its guns are there; the other arrives with it and,
//!   acting normally, may charge it). The side left outside then acts as the
//!   side outside always does: rallied, it takes its decision (`advance` or
//!   `retake`) in the same Movement phase, from where it stands; still
//!   retreating, it goes on retreating or rallying. A rallied side that
//!   cannot reach the position this turn comes its full move nearer.
//! - **Nothing fires** while the position is empty: the guns stand
//!   unmanned in it, the battery has no one in the buildings to shell, and a
//!   retreating or re-forming unit has no target in reach (the two sides are
//!   the position's width and both retreats apart, 16 inches and more).
//!
//! The defaults: the holders, 8 inches behind, reach the position again with
//! one 8-inch move, and their table edge is 8 inches behind it, so they get
//! their rally roll (11/20 for Experienced troops) before a failure takes
//! them off; attackers who broke in contact are 8 inches out and, rallied on
//! the same turn, tie, and the holders walk in first. `both_break = no_one`
//! is the reading before issue 34: the fight ends, no one holding the
//! position (`none`). Measured at the defaults (purpose `manoeuvre`, best
//! play): 16.42% / 83.58% / 0.0035% (attacker / defender / none) against
//! 9.20% / 75.21% / 15.59% under `no_one` (`cargo run --release -p
//! volley-kernel --example solve_time -- hougoumont assault purpose=manoeuvre
//! rules.both_break=no_one`). The independent solver found 16.4 /
//! 83.6 / 0.04; the `none` left here is both sides leaving the field in the
//! same Give Orders phase (both fail to rally with the attackers' retreat
//! past their edge), the only way a played-on fight ends in no one's win
//! before the limit.
//!
//! # Counter-charges
//!
//! 2 moves every unit and gives infantry and cavalry a charge bonus, and
//! nothing in the text ties a holder to its position; so with the scenario
//! key `counter_charge` (on in `assault`, off by default in `farm_assault`,
//! below) the holders take a decision ([`COUNTER_CHARGE`]) in each
//! Movement phase in which the side outside, not retreating, ends its move
//! within their move plus charge bonus: stay, or charge out at it. The side
//! outside moves first and the holders answer (a counter-charge answers a
//! move; the model's Movement has one order, the side outside's decision
//! first, as it always had). A counter-charge is a charge like any other:
//!
//! - **Fire.** The holders' muskets are charging and their guns would fire
//!   through their own men (3.3 bars artillery from a melee "to prevent
//!   friendly fire casualties"), so neither fires that turn, and the battery
//!   has nothing to shell in buildings its garrison has left. Under
//!   `closing_volley = at_charge_start` the side outside, charged, fires
//!   once at the distance the charge began, as holders charged do; at
//!   holders in the open by default (`sortie_cover = open`: 3.1's "+10
//!   needed" is for "targets behind walls/buildings", and a unit that has
//!   charged out is not behind them), or under `sortie_cover = position`
//!   behind their position's cover, where their charge began.
//! - **Melee.** In contact the units fight a round of 4 and test (5) as
//!   any melee; walls give no melee bonus anyway, so the place of the melee
//!   changes no number of it.
//! - **Going back.** The rules do not say whether a unit that won a melee
//!   goes back; holders left out in the open would no longer hold the
//!   position they came to hold, so they go back to it, and the side
//!   outside, broken, "must immediately move 8 inches away from the enemy":
//!   it ends the counter-charge's distance plus 8 inches from the position.
//!   When they go back is `sortie_return`: `after_break` (default: the
//!   melee goes on, a round a turn, as every melee in contact does in this
//!   model, until a side breaks) or `after_round` (holders still standing
//!   after the turn's Melee and Morale Check go back whether or not the
//!   enemy broke, leaving it where it stood; the sortie as a raid). The walk
//!   back is counted done before the side outside can act: it is broken and
//!   "take[s] no further action this turn", and rallies only in the next
//!   Give Orders phase (a counter-charge of 9 or 10 inches is walked back
//!   in one 8-inch move; the inch or two past the move is the model's).
//! - **Lost.** Holders who break in their counter-charge are handled as
//!   holders broken in contact at their position: the side outside takes
//!   it (the few inches between the melee and the position are not kept).
//!
//! The heuristics (`bold`, `cautious`) never counter-charge, as before. At
//! the defaults the counter-charge changes nothing: best play never takes
//! it in the default `assault` (16.1872% for the attacker either way under
//! purpose `attack`, 6 decimals; `counter_charge=false` to compare), for
//! holders who charge out give up their volley and their guns' canister and
//! meet the side outside's closing volley in the open. Nor does it in the
//! other settings measured under `attack` (Elite defenders against
//! Inexperienced attackers, 5.2189% with guns and 50.7571% without; the
//! same in woods, 99.9410%; 30 defenders against 20 without guns,
//! 14.3084%: each the same with `counter_charge=false`); it pays where the
//! holders' fire cannot do what their melee can (the test
//! `a_counter_charge_by_hand`), and under `fire_at_gunners = allowed` in
//! the farm it moves the attackers' chance in the seventh decimal (both
//! sides' holders may charge out). In `farm_assault` it is off by default: it changes nothing
//! there either (the attackers win 100.0% with it or without it), and it
//! costs the farm's exact solve about a quarter more time (measured: 2.80 s
//! to 3.51 s of CPU, 563 to 711 MB, on a loaded machine), past the 2 s
//! budget; `counter_charge=true` offers it.
//!
//! # A sally
//!
//! With the scenario key `sally` (`farm_assault` only; off by default, for
//! the solve's budget: below) the garrison may leave the farm to fight the
//! attackers' battery (issue 34's item 3). What the text allows: 2 moves
//! every unit and ties none to its ground, 4 lets any figures melee, and
//! every rule speaks of a whole unit (2 moves "infantry", 5 retreats and
//! rallies "the unit"); none detaches part of one. So a sally is the whole
//! garrison leaving the farm, which stands empty behind it:
//!
//! - **The decision** ([`SALLY`]), in each Movement phase after the
//!   attackers have moved (they move first, as always): at home, with the
//!   attackers not in contact and the battery's crews standing, stay or
//!   sally; out, turn back or go on (with the crews gone, it turns back).
//!   Staying and turning back are listed first, so a sally is taken only
//!   where it is worth strictly more. Going on is the garrison's full move
//!   towards the guns (2), or, within its move plus charge bonus, a charge
//!   into contact with their crews; turning back is its full move towards
//!   the farm, into it when the farm is within the move. Only full moves
//!   are offered (a shorter step only leaves it longer under fire with the
//!   farm empty). `bold` and `cautious` never sally, as they never
//!   counter-charge: both keep the garrison in the farm.
//! - **Where the battery stands.** The rules place nothing; the scenario
//!   puts the battery square to the attackers' line of advance, `gun_distance`
//!   from the farm (guns on a flank, firing across the attackers' front), so
//!   a garrison `out` inches towards them and attackers `distance` inches
//!   from the farm are the hypotenuse apart, rounded up to the inch.
//! - **Fire.** Out of the farm the garrison is a target in the open (3.1:
//!   no "+10" for walls it is not behind): the attackers fire at it at the
//!   hypotenuse, and the battery fires canister at it within canister range
//!   (3.2: D8 a gun, D6 in woods; the empty buildings are not shelled). The
//!   garrison fires from where it stands, at the attackers or, under
//!   `fire_at_gunners = allowed`, at the gunners ([`TARGET`]); not in the
//!   turn it charges them nor in melee with them. Its charge meets the guns'
//!   canister at the distance it began from under `closing_volley =
//!   at_charge_start` (as every charge meets its target's fire). The
//!   farm's own guns stand unmanned while it is out.
//! - **Melee with the gunners** (4): the crews left (`attacker.gun_crew`
//!   figures a gun; the rules size no crew) fight the garrison a round a
//!   turn while in contact, as troops of their crew's quality (a `regular`
//!   crew as Experienced, +2: the rules give gunners no melee modifier, so
//!   this is the interpretation `gunner_melee = by_crew`; `no_modifier`
//!   fights them at +0). Their losses come off one gun's
//!   crew after another; a gun without crew falls silent for the fight. The
//!   battery takes no morale test (as under `fire_at_gunners`); the garrison
//!   tests on its losses (5).
//! - **The empty farm.** Attackers whose move reaches the farm while the
//!   garrison is out (their charge option) walk in and hold it; the garrison
//!   is then the side outside, `out` inches off, not retreating, and acts as
//!   defenders thrown out do ([`RETAKE`]). A garrison that turns back and
//!   reaches the farm first holds it again.
//! - **Broken out of the farm.** A garrison that fails morale on its sally
//!   is handled as holders broken at their position (as a counter-charge
//!   lost): the attackers take the farm and the garrison retreats 8 inches
//!   beyond it; with the attackers broken or retreating too, both retreat
//!   and the farm stands empty (`both_break`).
//!
//! What it does (purpose `manoeuvre`, best play both sides; test
//! `best_play_with_the_sally_beats_every_heuristic_and_monte_carlo_agrees`):
//! 6 Veteran light infantry in a farm shelled by one flat gun 8 inches off
//! (its penetrations set the farm alight, 1/3 each), 8 attackers 30 inches
//! away, 6 turns: the garrison charges the gun, and the attackers win 79.5%
//! and the garrison 1.3%, against 99.3% and 0.03% without the sally. At the
//! default farm it changes nothing: the attackers win 100.0% with it or
//! without it under the default purpose, for the two howitzers 20 inches off
//! meet a sally with canister (D8 a gun) over two turns in the open before
//! it can charge (that 100.0% from an exact solve forced past the limit
//! below). It costs the default farm's exact solve about eight times its
//! time and memory (`/usr/bin/time` on `cargo run --release -p
//! volley-kernel --example solve_time -- hougoumont farm_assault
//! sally=true`, measured before the estimate counted the sally: 8.1 s of
//! user CPU and 1.7 GB against 1.05 s and 0.24 GB, under a load of about
//! 3; with `rules.fire_at_gunners=allowed` as well, 17.6 s and 2.9 GB),
//! past both halves of the 2 s and 1 GB budget. So it is off by default,
//! and [`Assault::size_estimate`] counts the garrison's places out of the
//! farm: the default farm with `sally=true` is past [`SOLVER_LIMIT`], has
//! no exact solve and samples the `cautious` fallback; smaller farms solve
//! exactly (the test's farm above in about 0.3 s). Not built: the attackers charging the garrison in the open (the
//! attackers' aim is the farm, and they may walk into it), and the sally's
//! states merged (what would bring it within budget: the attackers' volley
//! at a garrison in the open draws many more outcomes than at walls).
//!
//! # The battery's gunners
//!
//! 3.1 lets every figure fire at a target at any distance, hitting on a D20
//! of the distance or more, and 3.3 forbids only artillery's fire into a
//! melee; a battery's gunners are men in the open, so the text lets the
//! garrison fire at them (`fire_at_gunners = allowed`): light infantry (+2)
//! reach them at the default 20 inches on 18 or more. The rules never size
//! a crew, so the scenario assumes one: `attacker.gun_crew` figures a gun
//! (default 1: at the scenario's scale, about a hundred men a figure, a
//! gun's crew of 15 to 25 men is under one figure, counted as one). Hits
//! fall on one gun's crew after another, and a gun whose crew is gone
//! falls silent for the rest of the fight (the natural reading: a gun
//! needs men to fire it); the battery takes no morale test (it is the
//! attackers' fire support, never a unit that retreats). The state keeps
//! the crew figures left, which with one figure a gun is the guns still
//! firing. When the garrison can hit both the attackers and the gunners it
//! decides which its volley goes at ([`TARGET`]; one target a volley);
//! with only the gunners in reach it fires at them. Its heuristics fire at
//! the attackers when it can, as before.
//!
//! The default is still `never`, the reading before issue 34, for the
//! exact solve's budget alone (below, "The solve's cost": `allowed` now
//! fits the 1 GB but not the 2 s of CPU). Measured under the default
//! purpose (`attack`), best play both sides: the attackers win 94.30% and
//! the defenders 5.70% under `allowed`, against 100.0% and 0.0% under
//! `never` (at 20 attacker figures, 56.0% against 100.0%: see the guide).
//!
//! # The solve's cost
//!
//! The crew and the target decision multiply the farm's states (crews 2, 1
//! and 0 at the defaults). Three things keep the default farm's exact solve
//! within its budget, none changing an exact number (the distributions of
//! every metric, compared to 1e-17 before and after on seventeen settings
//! of both scenarios, and pinned by the test
//! `the_assaults_cut_states_give_the_numbers_they_gave_before`):
//!
//! - **The artillery is a step of its own** within the Movement step (not
//!   counted in `turns`, nor in the turns to play that settle ties): the
//!   salvo's law is one set of branches for the position a move leaves,
//!   shared by every option that leaves it there, rather than one for each
//!   option of the move.
//! - **Morale marks hold only what they decide.** After the artillery each
//!   side's mark becomes the fewest hits of the volley still to come at it
//!   that make it test (5's triggers, a loss of 25% and a fall below half,
//!   are both met by more hits whenever by fewer), or nothing where no
//!   volley can do it; the holders' firing distance is dropped after their
//!   volley, and a silenced battery keeps no range.
//! - **A burning farm's last Firing phase** (`burning_building =
//!   evacuate`: the fight ends after it, before any Morale Check) keeps only
//!   the figures, the volley to come and the buildings' state; and a
//!   fight's last state only what its outcome code reads.
//!
//! Measured on this 2-core machine (`/usr/bin/time` on `cargo run
//! --release -p volley-kernel --example solve_time -- hougoumont
//! farm_assault rules.fire_at_gunners=allowed`): under a load of about 2,
//! `allowed` 3.2-3.3 s of user CPU and 0.4-0.5 s of system (2.6 s wall)
//! and 0.65 GB, `never` 1.1 s user and 0.2 s system (0.95 s wall) and
//! 0.27 GB; under a load of about 9, before and after the cut, `allowed`
//! 6.6 s to 3.4 s of user CPU and 1.26 to 0.65 GB, `never` 2.4 s to 1.1 s
//! and 0.56 to 0.26 GB, the default `assault` 1.25 s to 0.96 s.
//!
//! The generic solver then learnt two things (`crate::game`'s graph and
//! solve; every exact number unchanged to the bit): it values a state
//! within a turn only in the solver's steps that can reach it (the
//! artillery's states, reached only from Movement, were valued at all
//! three of a turn's steps: 8.3 million valuations for the default farm
//! under `allowed`, now a third of that, against 20.2 million of the
//! states that start a step), and it keeps a repeated step's states once
//! (the farm's 90 steps start from 17 distinct sets). Measured under a
//! load of about 10 on this 2-core machine, old and new binaries one after
//! the other: `allowed` 4.02 s to 3.88 s of user CPU and 0.65 to 0.59 GB.
//! What is left, profiled (`perf record`): the backward pass over the
//! states that start a step (about 36% of the CPU: each is valued once in
//! every one of the 30 turns that can reach it), the exploration (the
//! steps enumerated, and the laws added one after another, each target's
//! id looked up in one hash map: 12%, on one thread), and the forward walk
//! to the distribution (10%). What would bring `allowed` under 2 s: fewer
//! states, the holders' and the outside side's volleys (the largest
//! states: the firers' figures before and after the other volley) drawn in
//! an order that keeps fewer figures apart; or the ids looked up in
//! parallel. A count of the turns to play that let the assault's phases be
//! steps within a turn changes no valuation count (each state is still
//! valued once a turn), and changes tied options (tried before: exact
//! distributions moved by up to 1.6e-4).
//!
//! # A turn
//!
//! Each turn follows 1, as three steps of the game (orders, movement and
//! artillery; the holders' volley; the outside side's volley or the melee
//! with the Morale Check), so `turns` counts three steps as one turn:
//!
//! 1. **Give Orders and Movement.** A retreating side tries to rally (a D20
//!    against its morale need) or retreats 8 inches more, leaving the field
//!    past its table edge (5; `edge` inches behind its starting place). The
//!    side outside, if not retreating, decides: hold, move any whole number of
//!    inches up to its move (movement rates are maximums, 2), or, within its
//!    move plus its charge bonus, charge into contact. Then the holders, with
//!    the side outside within their charge reach, may charge out at it
//!    (`counter_charge`; its closing volley is drawn here, the turn's only fire).
//! 2. **Artillery** (a step within the first, not counted as one). While
//!    the defenders hold the position and the units are
//!    not in contact (3.3), the attackers' battery fires at the buildings and
//!    the defenders' guns at the attackers: canister within its range,
//!    flat-trajectory shot or howitzer shells beyond. A howitzer firing again
//!    at a target that has not moved since adds its consecutive bonus (3.2);
//!    the count resets when it does not fire or the target moves.
//! 3. **The holders' small arms**, from the figures left after artillery
//!    (3.2 note), at the distance; in the turn of a charge only under
//!    `closing_volley = at_charge_start`, at the distance the charge began
//!    (the defenders' guns then fire canister at it too); or, under
//!    `fire_at_gunners = allowed`, at the battery's gunners.
//! 4. **The outside side's small arms**, from the figures it had after
//!    artillery (both volleys are simultaneous), unless it is retreating, in
//!    contact, or forbidden by `attacker_fire` (cavalry does not fire by
//!    default).
//! 5. **Melee and Morale Check.** Units in contact fight a round (4); a unit
//!    that lost 25% in the Firing or the Melee phase, or fell below half,
//!    tests (5); a defender attacked in the flank (`defender.flanked`) tests
//!    at the first Morale Check (`flanked_test`); a burning building makes its
//!    holders test under `burning_building = morale_test`.
//!
//! The fight ends when a side leaves the field (a retreat, or a failed
//! rally's retreat, past its table edge; both at once: none) or is
//! destroyed; when the defenders' buildings burn under `burning_building =
//! evacuate` (the attackers win); under `both_break = no_one`, when the
//! holders fail morale while the side outside also fails or is itself
//! retreating (none); or at the turn limit (`assault_limit`: undecided, or
//! the side holding the position wins; an empty position, no one).
//!
//! # Decisions
//!
//! The side outside the position decides how far to move and when to charge:
//! the attackers ([`ADVANCE`]) and, once they have lost the position and
//! rallied, the defenders ([`RETAKE`]). The options are listed least movement
//! first (hold or stay off, move 1 inch, ..., the full move, charge), so that
//! among equal options the solver keeps the side back, and then the
//! fall-backs (issue 34): 2 gives a move no direction, so the side outside
//! may also move away from the position, 1 inch up to its full move, never
//! past its own table edge (leaving the field is no move); listed last, a
//! fall-back is taken only where it is worth strictly more than every
//! forward option, out of a gun's canister range, say. Its policies: `bold`
//! charges when it can and otherwise moves its full move (the fixed play
//! before the game model); `cautious` never ends a move nearer than its charge
//! reach (move plus charge bonus) unless it charges from there. The holders
//! decide whether to counter-charge ([`COUNTER_CHARGE`], above) and, under
//! `fire_at_gunners = allowed`, what the garrison's volley goes at
//! ([`TARGET`]); otherwise firing never harms the firer, so every musket and
//! gun fires whenever the rules allow, and a holder gives up its position
//! only by failing morale or charging out and losing.
//!
//! Every state of a default fight is solved exactly; the solver's tables are
//! built once per scenario. Settings whose graph would outgrow the solver
//! ([`Assault::size_estimate`] above [`SOLVER_LIMIT`]) play the `cautious`
//! fallback; measured on the default assault (both sides' defaults, purpose
//! `manoeuvre`, the defenders playing best), cautious wins 10.7% and loses
//! 89.3% where best play wins 16.4% and loses 83.6% (bold: 10.1%, 89.9%), a
//! gap of 11.5 points of margin.
//!
//! The start distance, swept under best play and the default purpose (tests
//! `the_start_distance_sweep_under_best_play_has_no_jump` and
//! `the_farm_assault_start_distance_sweep_under_best_play_has_no_jump`), has
//! no jump of more than 10 points. Under `closing_volley = none` it had one
//! where no choice avoids a volley: the `assault` from 10 to 11 inches
//! (within charge reach the attackers charged at once and met no fire, 49.9%;
//! from 11 they spend a turn under the gun's canister and the muskets, 17.3%)
//! and `farm_assault` (10 attackers, 6 Veteran light infantry, 10 turns) from
//! 10 to 11 inches. The default closing volley meets the charge at the
//! distance it starts from, so the default assault runs 11.0% (6 inches),
//! 12.8 (8), 15.4 (10), 15.9 (11), 16.0 to 17.9 (12 to 17), 19.8 (19), 16.2
//! (22 to 29), 14.8 (30) at 12 turns: the nearer the start, the heavier the
//! volley the charge meets. The farm runs about 85.5% from 1 to 8 inches
//! (its attackers start under the light infantry's muskets) and 90 to 100%
//! beyond. The side outside may fall back out of range. Under purpose
//! `manoeuvre` the fall-back also lets the default `assault` attacker
//! withdraw and wait for the undecided limit (it then wins 0.0%: 0.0 / 32.3
//! / 67.7); under the default purpose, `attack`, where the limit is the
//! defenders' win, it attacks (16.2%).
//!
//! The turn limit matters to best play: a fight still going at the limit is
//! undecided under purpose `manoeuvre` (and `assault_limit = undecided`),
//! and an attacker that expects to lose more than it wins may hold out of
//! musket range and wait for it: the default assault, now that the attacker
//! may fall back out of the gun's reach, waits at 30 turns and at 20 (0.0%
//! won). Under the default purpose, `attack`, the limit is the defenders'
//! and the attacker attacks either way (16.26% at 30 turns and at 20, under
//! `closing_volley = none`; 16.2% at 30 with the default volley).

mod laws;
mod step;

pub(in crate::rulesets::hougoumont) use laws::Volley;
use laws::{MeleeRound, Salvo};

use super::artillery::Gun;
use super::melee::MeleeSide;
use super::{
    Arm, ArtilleryKind, AssaultLimit, AttackerFire, BothBreak, BurningBuilding, ClosingVolley, Cover, Crew,
    DefenderFailure, FireAtGunners, FlankedTest, FlankedWhen, Ground, GunnerMelee, HalfStrengthTest, Handover,
    LossTestBase, Quality, Rules, SortieCover, SortieReturn, Target, Troops, percent,
};
use crate::game::{ATTACKER, DEFENDER, Decision, End, Fate, Game, Policy};
use crate::outcome::{Layout, Metric, WINNERS};
use crate::params::{Choice, ParamError};
use std::sync::OnceLock;

/// The attackers' guns bombarding the defenders' buildings (`farm_assault`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Battery {
    /// How many guns.
    pub guns: u32,
    /// Flat trajectory or howitzer.
    pub kind: ArtilleryKind,
    /// The crews' quality (howitzer adjustment).
    pub crew: Crew,
    /// Inches from the guns to the buildings.
    pub distance: u32,
    /// Figures in each gun's crew (the rules size none; `attacker.gun_crew`):
    /// the garrison's hits fall on one gun's crew after another, and a gun
    /// whose crew is gone falls silent (`fire_at_gunners`).
    pub crew_figures: u32,
}

/// Everything an assault is built from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AssaultSetup {
    /// The attacker's figures.
    pub attacker_figures: u32,
    /// The attacker's experience.
    pub attacker_quality: Quality,
    /// How the attacker moves.
    pub attacker_arm: Arm,
    /// The ground the attackers cross.
    pub ground: Ground,
    /// The defender's figures.
    pub defender_figures: u32,
    /// The defender's experience.
    pub defender_quality: Quality,
    /// What the defenders fire (light troops also move as light infantry).
    pub defender_troops: Troops,
    /// Open (the `assault`) or walls and buildings (`farm_assault`).
    pub defender_cover: Cover,
    /// The attack comes on the defenders' flank: they test morale at the first
    /// Morale Check (5, `flanked_test`).
    pub defender_flanked: bool,
    /// The defenders' guns: canister within its range, `defender_artillery` beyond.
    pub defender_guns: u32,
    /// Flat trajectory or howitzer: what the defenders' guns fire beyond canister range.
    pub defender_artillery: ArtilleryKind,
    /// The attackers' guns, if any, bombarding the defenders' buildings.
    pub battery: Option<Battery>,
    /// Inches between the units at the start.
    pub distance: u32,
    /// Inches behind each side's starting place to its table edge (the
    /// attackers' start, the defenders' position).
    pub edge: u32,
    /// The turn limit.
    pub turns: u32,
}

/// The decision of the attackers in each Movement phase while they are outside the position.
pub static ADVANCE: Decision = Decision {
    name: "advance",
    who: "attacker",
    doc: "In Movement (2), how far the attackers move: movement rates are maximums, so they may hold or stop \
          short; within their move plus charge bonus they may charge into contact (also to retake a position \
          they took and lost); movement has no direction, so they may also fall back up to their move, short \
          of their table edge.",
    options: "hold; advance 1 inch, 2 inches, ... up to the full move; charge; fall back 1 inch, ... up to the \
              full move (least movement first, fall-backs last)",
};

/// The decision of defenders who lost the position and rallied.
pub static RETAKE: Decision = Decision {
    name: "retake",
    who: "defender",
    doc: "Defenders who failed morale, retreated and rallied \"can act normally\" (5): they stay off, leaving the \
          position to the attackers, or come back any whole number of inches up to their move (2), and within \
          their move plus charge bonus charge to retake it; or fall back up to their move, short of their table \
          edge.",
    options: "stay off; come back 1 inch, 2 inches, ... up to the full move; charge; fall back 1 inch, ... up to \
              the full move (least movement first, fall-backs last)",
};

/// The decision of the holders of the position in each Movement phase in
/// which the side outside, not retreating, ends its move within their charge
/// reach (the scenario key `counter_charge`).
pub static COUNTER_CHARGE: Decision = Decision {
    name: "counter_charge",
    who: "either side (the holders of the position)",
    doc: "In Movement (2), after the side outside has moved: with it, not retreating, within their move plus \
          charge bonus, the holders of the position may stay in it or charge out at it (2 ties no unit to its \
          ground), to melee in the open (4); they go back to the position when the melee is decided \
          (`sortie_return`).",
    options: "stay in the position; charge out (staying first)",
};

/// The decision of the farm's garrison in each Firing phase in which its
/// small arms can hit both the side outside and the battery's gunners
/// (interpretation `fire_at_gunners`).
pub static TARGET: Decision = Decision {
    name: "target",
    who: "defender",
    doc: "In the Firing phase (3.1), the garrison's volley at the attackers outside or at the gunners of their \
          battery, when both are within reach of a D20 (a volley has one target; with only one in reach it fires \
          at that one, firing never harming the firer).",
    options: "the attackers; the gunners (the attackers first)",
};

/// The decision of the farm's garrison in each Movement phase, with the
/// scenario key `sally`: at home with the battery's crews standing, stay or
/// sally out at the guns; out, go on towards them (charging them within
/// reach, fighting on in contact) or turn back to the farm.
pub static SALLY: Decision = Decision {
    name: "sally",
    who: "defender",
    doc: "In Movement (2), after the attackers have moved: the garrison holding the farm, the attackers not in \
          contact and the battery's crews standing, stays in the farm or leaves it, the whole unit, its full move \
          towards the guns (charging their crews in melee, 4, when within its move plus charge bonus), the farm \
          empty behind it; out of the farm, it goes on (in contact, fights on) or turns back its full move, \
          walking in again when the farm is within its move.",
    options: "at home: stay, sally; out: turn back, go on (staying or turning back first)",
};

static DECISIONS: &[&Decision] = &[&ADVANCE, &RETAKE, &COUNTER_CHARGE, &TARGET, &SALLY];

/// The steps of a turn: orders, movement and artillery; the holders'
/// volley; the outside side's volley or the melee, and the Morale Check.
const MOVEMENT: u8 = 0;
const HOLDER_VOLLEY: u8 = 1;
const CLOSE: u8 = 2;
/// The artillery's fire, after Movement: a step within the Movement step.
const ARTILLERY: u8 = 3;
/// Steps per turn.
pub const PHASES: u32 = 3;

/// The side outside the position is retreating (failed morale, not yet rallied).
const ROUTED: u16 = 1;
/// A howitzer has blown the roof off.
const ROOF_OFF: u16 = 2;
/// The buildings burn.
const BURNING: u16 = 4;
/// The battery's howitzers fired at the buildings last turn.
const BATTERY_RANGED: u16 = 8;
/// The defenders' howitzers fired at the attackers last turn, and the attackers have not moved since.
const GUNS_RANGED: u16 = 16;
/// The side outside must test morale at this turn's Morale Check.
const OUTSIDE_TESTS: u16 = 32;
/// The holders must test morale at this turn's Morale Check.
const HOLDER_TESTS: u16 = 64;
/// The attackers hold the position; the defenders are outside it.
const HELD: u16 = 128;
/// The position is empty and the side that held it last is retreating
/// (failed morale, not yet rallied); see [`Position::behind`].
const HOLDER_ROUTED: u16 = 256;

/// An assault between steps. Fields that cannot matter at a step are kept
/// at zero, so that equal situations are one state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Position {
    /// The figures of the attacker (index 0) and the defender (1).
    figures: [u8; 2],
    /// The outside side's figures at the start of the Firing phase (morale);
    /// after the artillery, the fewest hits of the holders' volley that make
    /// it test (0: none can, or its test is settled); after the holders'
    /// volley, the figures that fire its own.
    outside_mark: u8,
    /// The holders' figures at the start of the Firing phase (morale); after
    /// the artillery, the fewest hits of the outside side's volley that make
    /// them test (0: none can, or their test is settled).
    holder_mark: u8,
    /// Inches between the side outside and the position (0: in contact).
    distance: u8,
    /// The distance the holders fire at this turn (0: they do not).
    fire_at: u8,
    /// The next step of the turn.
    phase: u8,
    /// Inches behind the position of the side that held it last, on its own
    /// side (0: it holds the position; more: both sides broke and the
    /// position is empty, interpretation `both_break = play_on`).
    behind: u8,
    /// Inches out from the position at which holders who counter-charged
    /// fight the side outside (0: no counter-charge; while it is more, the
    /// units are in contact and `distance` is 0).
    sortie: u8,
    /// The battery's crew figures left (`farm_assault`, `fire_at_gunners =
    /// allowed` or `sally`; else its full crew, never fired at).
    crew: u8,
    /// Inches out from the farm towards the battery of a garrison that
    /// sallied (the `sally` key; 0: at home). While it is more the farm is
    /// empty, the attackers still `distance` from it; at the battery's
    /// distance the garrison is in contact with its crews.
    out: u8,
    /// [`ROUTED`], [`ROOF_OFF`], ...
    flags: u16,
}

impl Position {
    /// The side outside the position.
    fn outside(&self) -> u8 {
        if self.flags & HELD != 0 { DEFENDER } else { ATTACKER }
    }

    /// The side holding the position (or, while it is empty, that held it last).
    fn holder(&self) -> u8 {
        1 - self.outside()
    }

    /// Whether the position is empty: both sides broke (`both_break = play_on`).
    fn empty(&self) -> bool {
        self.behind > 0
    }

    /// Whether the garrison is out of the farm on a sally (the `sally` key).
    fn sallied(&self) -> bool {
        self.out > 0
    }
}

/// The D20 needs that differ: 1 or less (always), 2..=20, 21 or more (never).
const NEEDS: usize = 21;

/// The `assault` and `farm_assault` scenarios, as a game.
#[derive(Debug)]
pub struct Assault {
    /// What each side must achieve (the scenario's `purpose` key).
    purpose: crate::game::Purpose,
    /// Whether the holders may counter-charge (the scenario's `counter_charge` key).
    counter_charge: bool,
    /// Whether the farm's garrison may sally against the battery (the
    /// scenario's `sally` key).
    sally: bool,
    setup: AssaultSetup,
    rules: Rules,
    farm: bool,
    /// Inches each side moves per turn over the ground between (2).
    move_inches: [u32; 2],
    /// Each side's charge bonus (2).
    charge_bonus: [u32; 2],
    /// Past this distance from the position each side has left the field.
    farthest: [u32; 2],
    /// Each side's small-arms troops, or `None` if it does not fire.
    troops: [Option<Troops>; 2],
    /// The D20 each side needs to pass morale or rally.
    morale_need: [i32; 2],
    melee_modifier: [i32; 2],
    /// The battery's salvo by guns still firing (from 1) and `[roof intact][consecutive]`.
    battery: Option<Vec<[[Salvo; 2]; 2]>>,
    /// The D20 the garrison needs to hit the battery's gunners, if it may
    /// fire at them and can hit them (`fire_at_gunners`).
    gunner_need: Option<i32>,
    /// The defenders' guns at each distance, `[consecutive]`; `None` where they cannot fire.
    defender_guns: Vec<[Option<Salvo>; 2]>,
    /// Volleys by side, firing figures and need, built when first needed.
    volleys: [Vec<OnceLock<Volley>>; 2],
    /// Melee rounds by attacker and defender figures, built when first needed.
    melees: Vec<OnceLock<MeleeRound>>,
    /// The battery's canister at a sallying garrison in the open, by guns
    /// still firing (from 1), built when first needed (3.2: the same D8
    /// at any distance within its range).
    canister: Vec<OnceLock<Salvo>>,
    /// Melee rounds of the battery's crew figures against the garrison's
    /// figures, built when first needed (the `sally` key).
    gunner_melees: Vec<OnceLock<MeleeRound>>,
    layout: Layout,
}

fn invalid(key: &str, reason: impl Into<String>) -> ParamError {
    ParamError::Invalid { key: key.into(), reason: reason.into() }
}

fn rename(error: ParamError, key: &str) -> ParamError {
    match error {
        ParamError::Invalid { reason, .. } => ParamError::Invalid { key: key.into(), reason },
        other => other,
    }
}

impl Assault {
    /// An assault as `setup` describes; a battery or walls make it a farm
    /// assault with the extra `fire` and `roof` metrics.
    pub fn new(rules: &Rules, setup: AssaultSetup) -> Result<Assault, ParamError> {
        for (key, figures) in
            [("attacker.figures", setup.attacker_figures), ("defender.figures", setup.defender_figures)]
        {
            if !(1..=200).contains(&figures) {
                return Err(invalid(key, "a unit needs 1 to 200 figures"));
            }
        }
        if setup.turns == 0 || setup.distance == 0 {
            return Err(invalid("distance", "the units must start apart, with at least one turn"));
        }
        // 2: "Cavalry ... cannot enter woods."
        if setup.ground == Ground::Woods && setup.attacker_arm == Arm::Cavalry {
            return Err(invalid(
                "attacker.arm",
                "cavalry cannot enter woods (2): choose infantry or light_infantry, or open ground",
            ));
        }
        if setup.defender_artillery == ArtilleryKind::Canister {
            return Err(invalid(
                "defender.artillery",
                "the defenders' guns fire canister within its range anyway: choose flat or howitzer for beyond it",
            ));
        }
        let farthest = [setup.distance + setup.edge, setup.edge];
        // Distances are kept in a byte: the farthest retreat must fit.
        if farthest[0] + rules.retreat_distance > 255 {
            return Err(invalid("distance", "the distance, the edge and a retreat must add to at most 255 inches"));
        }
        let farm = setup.defender_cover == Cover::Walls;
        let attacker_target = if setup.ground == Ground::Woods { Target::Woods } else { Target::Open };
        let gun_at = |d: u32, consecutive: bool| -> Option<Salvo> {
            if setup.defender_guns == 0 || d == 0 {
                return None;
            }
            // 3.2: canister within its range (a crew always loads the deadlier round there).
            let kind = if d <= rules.canister_range { ArtilleryKind::Canister } else { setup.defender_artillery };
            // A howitzer inside its minimum range beyond canister range cannot fire.
            let gun = Gun::new(rules, kind, d, attacker_target, Crew::Regular, consecutive).ok()?;
            Some(Salvo::new(gun, setup.defender_guns, true, rules.figures_per_hit))
        };
        let defender_guns = (0..=farthest[0] + rules.retreat_distance)
            .map(|d| {
                let consecutive = setup.defender_artillery == ArtilleryKind::Howitzer;
                [gun_at(d, false), if consecutive { gun_at(d, true) } else { None }]
            })
            .collect();
        let battery = match setup.battery {
            None => None,
            Some(battery) => {
                if battery.kind == ArtilleryKind::Canister {
                    return Err(invalid(
                        "attacker.artillery",
                        "the battery bombards the buildings from a distance: choose flat or howitzer",
                    ));
                }
                if battery.crew_figures == 0 || battery.guns * battery.crew_figures > 255 {
                    return Err(invalid(
                        "attacker.gun_crew",
                        "a gun's crew needs 1 figure or more, all crews 255 at most",
                    ));
                }
                let salvo = |guns: u32, roof_intact: bool, consecutive: bool| -> Result<Salvo, ParamError> {
                    let gun =
                        Gun::new(rules, battery.kind, battery.distance, Target::Building, battery.crew, consecutive)
                            .map_err(|e| rename(e, "gun_distance"))?;
                    Ok(Salvo::new(gun, guns, roof_intact, rules.figures_per_hit))
                };
                let mut salvos = Vec::new();
                for guns in 1..=battery.guns {
                    salvos.push([
                        [salvo(guns, false, false)?, salvo(guns, false, true)?],
                        [salvo(guns, true, false)?, salvo(guns, true, true)?],
                    ]);
                }
                Some(salvos)
            }
        };
        // 3.1: the gunners stand in the open at the battery's distance.
        let gunner_need = match setup.battery {
            Some(battery) if rules.fire_at_gunners == FireAtGunners::Allowed => {
                let need = rules.small_arms_need(setup.defender_troops, Cover::Open, battery.distance);
                (need <= 20).then_some(need)
            }
            _ => None,
        };
        // 2: the defenders move as infantry, light troops as light infantry.
        let defender_arm = if setup.defender_troops == Troops::Light { Arm::LightInfantry } else { Arm::Infantry };
        let (attacker_move, attacker_bonus) = rules.movement(setup.attacker_arm, setup.ground);
        let (defender_move, defender_bonus) = rules.movement(defender_arm, setup.ground);
        // Interpretation `attacker_fire`: who among the attackers fires.
        let attacker_troops = match (rules.attacker_fire, setup.attacker_arm) {
            (AttackerFire::Never, _) | (AttackerFire::Infantry, Arm::Cavalry) => None,
            (_, Arm::LightInfantry) => Some(Troops::Light),
            (_, _) => Some(Troops::Line),
        };
        let mut metrics = vec![
            Metric::categories(
                "winner",
                "who holds the field (none: the turn limit, or both broke); under `purpose = attack` every fight the attacker does not win is the defender's (`ended` says how each ended)",
                WINNERS,
            ),
            Metric::integer("turns", "turns played", 1, i64::from(setup.turns)),
            Metric::integer("attacker_remaining", "the attacker's figures left, percent of its start", 0, 100),
            Metric::integer("defender_remaining", "the defender's figures left, percent of its start", 0, 100),
        ];
        if farm {
            metrics.push(Metric::boolean("fire", "the buildings were set alight"));
            metrics.push(Metric::boolean("roof", "a howitzer blew the roof off"));
        }
        let figures = [setup.attacker_figures as usize + 1, setup.defender_figures as usize + 1];
        Ok(Assault {
            purpose: crate::game::Purpose::Manoeuvre,
            counter_charge: false,
            sally: false,
            setup,
            rules: rules.clone(),
            farm,
            move_inches: [attacker_move, defender_move],
            charge_bonus: [attacker_bonus, defender_bonus],
            farthest,
            troops: [attacker_troops, Some(setup.defender_troops)],
            morale_need: [rules.morale_need(setup.attacker_quality, 0), rules.morale_need(setup.defender_quality, 0)],
            melee_modifier: [
                rules.melee_modifier(setup.attacker_quality),
                rules.melee_modifier(setup.defender_quality),
            ],
            battery,
            gunner_need,
            defender_guns,
            volleys: [
                (0..figures[0] * NEEDS).map(|_| OnceLock::new()).collect(),
                (0..figures[1] * NEEDS).map(|_| OnceLock::new()).collect(),
            ],
            melees: (0..figures[0] * figures[1]).map(|_| OnceLock::new()).collect(),
            canister: (0..setup.battery.map_or(0, |b| b.guns)).map(|_| OnceLock::new()).collect(),
            gunner_melees: (0..(setup.battery.map_or(0, |b| b.guns * b.crew_figures) as usize + 1) * figures[1])
                .map(|_| OnceLock::new())
                .collect(),
            layout: Layout::new(metrics),
        })
    }

    /// The setup.
    pub fn setup(&self) -> &AssaultSetup {
        &self.setup
    }

    /// 2: the attackers' charge reach, their move plus their charge bonus.
    pub fn charge_reach(&self) -> u32 {
        self.reach(ATTACKER)
    }

    /// 2: side `side`'s charge reach.
    fn reach(&self, side: u8) -> u32 {
        self.move_inches[side as usize] + self.charge_bonus[side as usize]
    }

    /// 3.1: the D20 side `side` needs to hit at `distance`, holding the
    /// position or not; `None` when it does not fire or cannot hit.
    fn need(&self, side: u8, holds: bool, distance: u8) -> Option<i32> {
        let troops = self.troops[side as usize]?;
        // The target's cover: the ground outside, or the position's.
        let cover = if holds { self.ground_cover() } else { self.setup.defender_cover };
        let need = self.rules.small_arms_need(troops, cover, u32::from(distance));
        (distance > 0 && need <= 20).then_some(need)
    }

    /// The volley of `figures` of side `side` needing `need`.
    fn volley(&self, side: u8, figures: u8, need: i32) -> &Volley {
        let need = need.clamp(1, NEEDS as i32);
        let index = usize::from(figures) * NEEDS + need as usize - 1;
        self.volleys[side as usize][index]
            .get_or_init(|| Volley::new(u32::from(figures), need, self.rules.figures_per_hit))
    }

    /// Whether the side outside fires at `distance` with any chance to hit (a
    /// volley that cannot hit is left out, so that states stay few).
    fn outside_can_hit(&self, s: &Position) -> bool {
        self.outside_need(s).is_some()
    }

    /// 3.1: the D20 the side outside needs at the holders in their position;
    /// `None` when it does not fire or cannot hit.
    fn outside_need(&self, s: &Position) -> Option<i32> {
        if s.flags & ROUTED != 0 {
            return None;
        }
        if s.sallied() {
            // 3.1: the garrison out of the farm is no longer behind its walls.
            let troops = self.troops[s.outside() as usize]?;
            let need = self.rules.small_arms_need(troops, self.ground_cover(), u32::from(self.sally_gap(s)));
            return (need <= 20).then_some(need);
        }
        self.need(s.outside(), false, s.distance)
    }

    /// Inches between a sallying garrison and the attackers: the battery
    /// stands square to the attackers' line of advance (the scenario's
    /// assumption, see "A sally"), so the garrison `out` inches towards it
    /// and the attackers `distance` from the farm are the hypotenuse apart,
    /// rounded up to the whole inch.
    fn sally_gap(&self, s: &Position) -> u8 {
        let squared = u32::from(s.distance).pow(2) + u32::from(s.out).pow(2);
        let mut gap = u32::from(s.distance.max(s.out));
        while gap * gap < squared {
            gap += 1;
        }
        gap.min(255) as u8
    }

    /// Inches between the garrison and the battery's guns.
    fn gunners_gap(&self, s: &Position) -> u32 {
        self.setup.battery.map_or(0, |b| b.distance.saturating_sub(u32::from(s.out)))
    }

    /// The sallying garrison is in contact with the battery's crews.
    fn at_the_guns(&self, s: &Position) -> bool {
        s.sallied() && self.gunners_gap(s) == 0
    }

    /// The battery's canister at a sallying garrison from `firing` guns (3.2:
    /// D8 a gun against troops in the open, D6 in woods).
    fn canister_salvo(&self, firing: usize) -> &Salvo {
        self.canister[firing - 1].get_or_init(|| {
            let battery = self.setup.battery.expect("a battery");
            let target = if self.setup.ground == Ground::Woods { Target::Woods } else { Target::Open };
            let gun = Gun::new(&self.rules, ArtilleryKind::Canister, 1, target, battery.crew, false)
                .expect("canister reaches 1 inch");
            Salvo::new(gun, firing as u32, true, self.rules.figures_per_hit)
        })
    }

    /// 4.1: the battery's crews in melee fight as troops of their crew's
    /// quality (a `regular` crew as Experienced troops) or with no
    /// modifier (as Inexperienced), as `gunner_melee` reads the rules,
    /// which give gunners no melee modifier.
    fn gunner_quality(&self) -> Quality {
        if self.rules.gunner_melee == GunnerMelee::NoModifier {
            return Quality::Inexperienced;
        }
        match self.setup.battery.map_or(Crew::Regular, |b| b.crew) {
            Crew::Regular => Quality::Experienced,
            Crew::Veteran => Quality::Veteran,
            Crew::Elite => Quality::Elite,
        }
    }

    /// The melee round of `crew` gunner figures (the attacking side of the
    /// law) against `garrison` defender figures.
    fn gunner_melee(&self, crew: u8, garrison: u8) -> &MeleeRound {
        let index = usize::from(crew) * (self.setup.defender_figures as usize + 1) + usize::from(garrison);
        self.gunner_melees[index].get_or_init(|| {
            MeleeRound::new(
                MeleeSide { figures: u32::from(crew), modifier: self.rules.melee_modifier(self.gunner_quality()) },
                MeleeSide { figures: u32::from(garrison), modifier: self.melee_modifier[1] },
                self.rules.casualty_rule(),
            )
        })
    }

    /// 3.1: the D20 side `side` needs for its closing volley at holders who
    /// counter-charged it from `distance` inches (their cover: `sortie_cover`).
    fn sortie_need(&self, side: u8, distance: u8) -> Option<i32> {
        let troops = self.troops[side as usize]?;
        let cover = match self.rules.sortie_cover {
            SortieCover::Open => self.ground_cover(),
            SortieCover::Position => self.setup.defender_cover,
        };
        let need = self.rules.small_arms_need(troops, cover, u32::from(distance));
        (need <= 20).then_some(need)
    }

    /// The cover of a unit out on the ground between the two (3.1).
    fn ground_cover(&self) -> Cover {
        if self.setup.ground == Ground::Woods { Cover::Woods } else { Cover::Open }
    }

    /// The battery's guns still firing: hits fall on one gun's crew after
    /// another, and a gun whose crew is gone falls silent.
    fn guns_firing(&self, s: &Position) -> usize {
        self.setup.battery.map_or(0, |b| u32::from(s.crew).div_ceil(b.crew_figures) as usize)
    }

    /// Whether the garrison can fire at the battery's gunners now: it holds
    /// the farm, is not in contact, and the gunners are within a D20's reach.
    fn gunners_in_reach(&self, s: &Position) -> Option<i32> {
        if s.sallied() {
            // Out of the farm: at the guns' distance now, unless in melee with them.
            if self.rules.fire_at_gunners == FireAtGunners::Never || s.crew == 0 || self.at_the_guns(s) {
                return None;
            }
            let need = self.rules.small_arms_need(self.setup.defender_troops, Cover::Open, self.gunners_gap(s));
            return (need <= 20).then_some(need);
        }
        let need = self.gunner_need?;
        (s.flags & HELD == 0 && !s.empty() && s.distance > 0 && s.crew > 0).then_some(need)
    }

    /// Whether the holders' muskets can hit at `fire_at` inches (0: they do
    /// not fire; a garrison at the guns is in melee, not firing).
    fn holders_can_hit(&self, s: &Position) -> bool {
        !self.at_the_guns(s) && self.need(s.holder(), true, s.fire_at).is_some()
    }

    /// The melee round of `attacker` against `defender` figures.
    fn melee(&self, attacker: u8, defender: u8) -> &MeleeRound {
        let index = usize::from(attacker) * (self.setup.defender_figures as usize + 1) + usize::from(defender);
        self.melees[index].get_or_init(|| {
            MeleeRound::new(
                MeleeSide { figures: u32::from(attacker), modifier: self.melee_modifier[0] },
                MeleeSide { figures: u32::from(defender), modifier: self.melee_modifier[1] },
                self.rules.casualty_rule(),
            )
        })
    }

    /// 5: whether side `side` must test after going from `before` to `after`
    /// figures in a phase (interpretations `loss_test_base`, `half_strength_test`).
    fn must_test(&self, side: u8, before: u8, after: u8) -> bool {
        let start = if side == ATTACKER { self.setup.attacker_figures } else { self.setup.defender_figures };
        let (before, after) = (u32::from(before), u32::from(after));
        let lost = before - after;
        let base = match self.rules.loss_test_base {
            LossTestBase::PhaseStart => before,
            LossTestBase::UnitStart => start,
        };
        let heavy = lost > 0 && lost * 100 >= self.rules.morale_loss_percent * base;
        let half = self.rules.morale_half_strength_percent;
        let below = after * 100 < half * start;
        let was_below = before * 100 < half * start;
        heavy || (below && (self.rules.half_strength_test == HalfStrengthTest::EveryTurn || !was_below))
    }

    /// The ways in 20 that side `side` passes a morale test or rallies.
    fn pass_ways(&self, side: u8) -> u32 {
        (21 - self.morale_need[side as usize]).clamp(0, 20) as u32
    }

    /// Side `side`'s options at `distance`: `moved << 8 | target`, least
    /// movement first, then the fall-backs ([`BACK`]), shortest first.
    fn options(&self, side: u8, distance: u8) -> ([u16; 128], usize) {
        let mut options = [0u16; 128];
        let mut count = 0;
        let distance = u32::from(distance);
        let nearest = distance.saturating_sub(self.move_inches[side as usize]).max(1);
        for target in (nearest..=distance).rev() {
            options[count] = option(distance - target, target);
            count += 1;
        }
        if distance <= self.reach(side) {
            options[count] = option(distance, 0);
            count += 1;
        }
        // 2: movement has no direction; a side may fall back away from the
        // position up to its move, never past its own table edge (leaving
        // the field is not a move). Listed last, so that a fall-back is
        // chosen only where it is worth strictly more.
        let farthest = (distance + self.move_inches[side as usize]).min(self.farthest[side as usize]);
        for target in distance + 1..=farthest {
            options[count] = BACK | option(target - distance, target);
            count += 1;
        }
        (options, count)
    }

    /// What each heuristic does for side `side` at `distance` (see the module documentation).
    fn heuristic(&self, side: u8, policy: Policy, distance: u8) -> u16 {
        let distance = u32::from(distance);
        let reach = self.reach(side);
        if distance <= reach {
            return option(distance, 0);
        }
        let full = distance.saturating_sub(self.move_inches[side as usize]).max(1);
        let target = match policy {
            Policy::Cautious => full.max(reach).min(distance),
            _ => full,
        };
        option(distance - target, target)
    }

    /// The winner when a side has no figures left.
    fn destroyed(state: &Position) -> Option<End> {
        match (state.figures[0] == 0, state.figures[1] == 0) {
            (false, false) => None,
            (true, false) => Some(End::Defender),
            (false, true) => Some(End::Attacker),
            (true, true) => Some(End::BothBroke),
        }
    }

    /// The position's place, in words, from the side outside it.
    fn target_words(&self) -> &'static str {
        if self.farm { "the farm" } else { "the position" }
    }
}

/// "1 inch", "8 inches".
fn inches(n: u32) -> String {
    if n == 1 { "1 inch".into() } else { format!("{n} inches") }
}

/// An option of the side outside: inches moved and the distance it ends at (0: contact).
fn option(moved: u32, target: u32) -> u16 {
    (moved << 8 | target) as u16
}

/// The mark of an option that falls back, away from the position.
const BACK: u16 = 0x8000;

impl Assault {
    /// This fight with the holders allowed to counter-charge, or not (the
    /// scenario key `counter_charge`; [`COUNTER_CHARGE`]).
    pub fn with_counter_charge(mut self, counter_charge: bool) -> Self {
        self.counter_charge = counter_charge;
        self
    }

    /// This fight under `purpose`: what each side must achieve by the turn
    /// limit ([`crate::game::Purpose`]).
    pub fn with_purpose(mut self, purpose: crate::game::Purpose) -> Self {
        self.purpose = purpose;
        self
    }

    /// This farm with its garrison allowed to sally against the battery, or
    /// not (the scenario key `sally`; [`SALLY`]).
    pub fn with_sally(mut self, sally: bool) -> Self {
        self.sally = sally;
        self
    }
}

impl Game for Assault {
    type State = Position;

    fn purpose(&self) -> crate::game::Purpose {
        self.purpose
    }

    fn layout(&self) -> &Layout {
        &self.layout
    }

    fn start(&self) -> Position {
        Position {
            figures: [self.setup.attacker_figures as u8, self.setup.defender_figures as u8],
            outside_mark: 0,
            holder_mark: 0,
            distance: self.setup.distance as u8,
            fire_at: 0,
            phase: MOVEMENT,
            behind: 0,
            sortie: 0,
            crew: self.setup.battery.map_or(0, |b| (b.guns * b.crew_figures) as u8),
            out: 0,
            // 5: flanked defenders test at the first Morale Check.
            flags: if self.setup.defender_flanked && !self.flanked_at_contact() { HOLDER_TESTS } else { 0 },
        }
    }

    fn steps(&self) -> u32 {
        self.setup.turns * PHASES
    }

    /// The artillery's fire is a step of its own within the Movement step
    /// (not counted in `turns`): the salvo's law is then one set of branches
    /// for the position the move left, rather than one for every option of
    /// the move.
    fn starts_turn(&self, state: &Position) -> bool {
        state.phase != ARTILLERY
    }

    fn step<F: Fate>(&self, state: &mut Position, fate: &mut F) -> Option<End> {
        let end = self.play_step(state, fate);
        if end.is_some() {
            // A fight's last state is read only for its outcome code: the
            // figures and the buildings' state.
            *state =
                Position { figures: state.figures, flags: state.flags & (BURNING | ROOF_OFF), ..Position::default() };
        }
        end
    }
    fn code(&self, winner: u8, steps: u32, state: &Position) -> u64 {
        let turn = steps.div_ceil(PHASES);
        let values = [
            i64::from(winner),
            i64::from(turn),
            percent(u32::from(state.figures[0]), self.setup.attacker_figures),
            percent(u32::from(state.figures[1]), self.setup.defender_figures),
            i64::from(state.flags & BURNING != 0),
            i64::from(state.flags & ROOF_OFF != 0),
        ];
        self.layout.encode(&values[..if self.farm { 6 } else { 4 }])
    }

    /// Interpretation `assault_limit`: undecided, or the side holding the position wins.
    fn at_limit(&self, state: &Position) -> End {
        match self.rules.assault_limit {
            AssaultLimit::Undecided => End::Limit,
            AssaultLimit::Holder if state.empty() || state.sallied() => End::Limit,
            AssaultLimit::Holder => End::won_by(state.holder()),
        }
    }

    fn decisions(&self) -> &'static [&'static Decision] {
        DECISIONS
    }

    /// Keys that change nothing at these settings: the defenders' artillery
    /// with no guns, the attackers' battery keys with no battery, and its
    /// crews' quality on guns that are not howitzers (3.2: only a howitzer
    /// crew adjusts its roll).
    fn unread_keys(&self) -> Vec<(String, String)> {
        let mut unread = Vec::new();
        let mut push = |key: &str, why: &str| unread.push((key.to_string(), why.to_string()));
        if self.setup.defender_guns == 0 {
            push("defender.artillery", "the defenders have no guns (defender.guns = 0)");
        }
        match self.setup.battery {
            None => {
                for key in ["attacker.artillery", "attacker.crew", "gun_distance", "attacker.gun_crew", "sally"] {
                    push(key, "the attackers have no battery (attacker.guns = 0)");
                }
            }
            Some(battery) if battery.kind != ArtilleryKind::Howitzer && !self.sally => {
                push("attacker.crew", "only a howitzer's crew adjusts its roll (3.2); these guns fire flat");
            }
            Some(_) => {}
        }
        if self.setup.battery.is_some() && self.gunner_need.is_none() && !self.sally {
            push(
                "attacker.gun_crew",
                if self.rules.fire_at_gunners == FireAtGunners::Never {
                    "the garrison does not fire at the gunners (fire_at_gunners = never)"
                } else {
                    "the garrison's small arms cannot reach the gunners at gun_distance (3.1)"
                },
            );
        }
        unread
    }

    fn fallback(&self) -> Policy {
        Policy::Cautious
    }

    /// The solver's own limit is not used: [`Assault::solvable`] decides up front.
    fn state_budget(&self) -> usize {
        usize::MAX
    }

    /// Whether the graph stays within what solves in about a second: an
    /// estimate of the states of the outside side's volley step, the largest,
    /// (firing figures and figures left, holders, distances), checked against
    /// measured solves.
    fn solvable(&self, _plan: crate::game::Plan) -> bool {
        self.size_estimate() <= SOLVER_LIMIT
    }

    fn describe_state(&self, state: &Position, side: u8) -> String {
        let place = self.target_words();
        let [a, d] = state.figures;
        let reach = inches(self.reach(side));
        if state.sallied() {
            let guns = match self.gunners_gap(state) {
                0 => "in melee with the battery's crews".to_string(),
                gap => format!("{} from the battery", inches(gap)),
            };
            return format!(
                "{d} defenders out of the farm on a sally, {} out and {guns} ({} battery crew figures left); {a} \
                 attackers {} from the empty farm",
                inches(u32::from(state.out)),
                state.crew,
                inches(u32::from(state.distance))
            );
        }
        match (state.distance, side) {
            (0, _) => format!("{a} attackers in contact with {d} defenders"),
            (distance, side) if side == state.holder() => {
                let (holders, outside) = if side == ATTACKER {
                    (format!("{a} attackers"), format!("{d} defenders"))
                } else {
                    (format!("{d} defenders"), format!("{a} attackers"))
                };
                let crew = match self.setup.battery {
                    Some(_) if self.gunner_need.is_some() => format!("; {} battery crew figures left", state.crew),
                    _ => String::new(),
                };
                format!(
                    "{holders} holding {place}, {outside} {} from it (charge reach {reach}{crew})",
                    inches(u32::from(distance))
                )
            }
            (distance, ATTACKER) if state.flags & HELD == 0 => format!(
                "{a} attackers {} from {} ({d} defenders; charge reach {reach})",
                inches(u32::from(distance)),
                if self.farm { place } else { "the defenders" },
            ),
            (distance, ATTACKER) => format!(
                "{a} attackers, thrown out of {place}, {} from it ({d} defenders hold it; charge reach {reach})",
                inches(u32::from(distance))
            ),
            (distance, _) => format!(
                "{d} rallied defenders {} from {place} ({a} attackers hold it; charge reach {reach})",
                inches(u32::from(distance))
            ),
        }
    }

    fn describe_option(&self, decision: &'static Decision, option: u16) -> String {
        if std::ptr::eq(decision, &COUNTER_CHARGE) {
            return if option == 0 { format!("stay in {}", self.target_words()) } else { "charge out".into() };
        }
        if std::ptr::eq(decision, &SALLY) {
            return if option == 0 {
                "stay in the farm, or turn back".into()
            } else {
                "sally at the guns, or go on".into()
            };
        }
        if std::ptr::eq(decision, &TARGET) {
            return if option == 0 { "fire at the attackers".into() } else { "fire at the gunners".into() };
        }
        let (moved, target) = (u32::from((option & !BACK) >> 8), u32::from(option & 0xff));
        let (moved_words, target_words) = (inches(moved), inches(target));
        let retake = std::ptr::eq(decision, &RETAKE);
        let side = if retake { DEFENDER } else { ATTACKER };
        let verb = if retake { "come back" } else { "advance" };
        if option & BACK != 0 {
            return format!("fall back {moved_words} to {target_words}");
        }
        match (moved, target) {
            (_, 0) if retake => format!("charge {moved_words} to retake the position"),
            (_, 0) => format!("charge {moved_words} into contact"),
            (0, _) if retake => format!("stay off at {target_words}"),
            (0, _) => format!("hold at {target_words}"),
            _ if target == self.reach(side) => format!("{verb} {moved_words} to charge reach ({target_words})"),
            _ => format!("{verb} {moved_words} to {target_words}"),
        }
    }

    /// The numbers of arms, qualities, troops, guns and buildings this
    /// assault has not: the defenders move as infantry or light infantry and
    /// no gun ever moves; a quality's melee and morale numbers where neither
    /// side has it; the fire bonuses of troops no one fires; a cover no one
    /// fires into; the howitzer's numbers without a howitzer, the flat
    /// trajectory's without one; the buildings' (roof, fire, burning) with
    /// no battery; the flanked test where the defenders are not flanked.
    fn reads_rule(&self, field: &str) -> bool {
        let s = &self.setup;
        let defender_arm = if s.defender_troops == Troops::Light { Arm::LightInfantry } else { Arm::Infantry };
        let arms = [s.attacker_arm, defender_arm];
        let sally = self.sally && s.battery.is_some();
        // A sallying garrison meets the gunners, who fight as their crew's quality.
        let gunners = if sally { self.gunner_quality() } else { s.attacker_quality };
        let qualities = [s.attacker_quality, s.defender_quality];
        let fires = |troops: Troops| self.troops.contains(&Some(troops));
        let guns = s.defender_guns > 0;
        let battery = self.battery.is_some();
        let kinds = [guns.then_some(s.defender_artillery), s.battery.map(|b| b.kind)];
        let howitzer = kinds.contains(&Some(ArtilleryKind::Howitzer));
        let crew = |crew: Crew| s.battery.is_some_and(|b| b.kind == ArtilleryKind::Howitzer && b.crew == crew);
        // A quality's own melee or morale modifier, by its name after the prefix.
        let quality = |prefix: &str| {
            field
                .strip_prefix(prefix)
                .and_then(Quality::from_name)
                .map(|q| qualities.contains(&q) || (prefix == "melee_" && q == gunners))
        };
        match field {
            // 2
            "move_infantry" => arms.contains(&Arm::Infantry),
            "move_light_infantry" => arms.contains(&Arm::LightInfantry),
            "move_cavalry" | "charge_bonus_cavalry" => arms.contains(&Arm::Cavalry),
            "move_artillery" => false,
            "woods_movement_percent" => s.ground == Ground::Woods && arms.contains(&Arm::Infantry),
            // 3.1
            "small_arms_light_bonus" => fires(Troops::Light),
            "small_arms_rifles_bonus" => fires(Troops::Rifles),
            "small_arms_woods_penalty" => s.ground == Ground::Woods || s.defender_cover == Cover::Woods,
            "small_arms_walls_penalty" => s.defender_cover == Cover::Walls,
            // 3.2
            "canister_range" | "canister_damage_die" => guns || sally,
            "canister_cover_damage_die" => ((guns || sally) && s.ground == Ground::Woods) || battery,
            "flat_dice" => kinds.contains(&Some(ArtilleryKind::Flat)),
            "howitzer_direct_score"
            | "howitzer_damage_die"
            | "howitzer_near_miss_hits"
            | "howitzer_minimum_range"
            | "howitzer_consecutive_adjust"
            | "howitzer_adjustment"
            | "howitzer_consecutive" => howitzer,
            "howitzer_veteran_adjust" => crew(Crew::Veteran),
            "howitzer_elite_adjust" => crew(Crew::Elite),
            // 6
            "flat_penetration_extra"
            | "building_hits"
            | "fire_at_least"
            | "fire_after"
            | "roof_hit"
            | "burning_building" => battery,
            // 5
            "flanked_test" | "flanked_when" => s.defender_flanked,
            "both_break" | "handover" => self.rules.defender_failure == DefenderFailure::RetreatAndRally,
            // 2, 4: the holders' counter-charge; its cover matters only to a
            // closing volley whose target's cover out of the position differs.
            "sortie_return" => self.counter_charge,
            "sortie_cover" => {
                self.counter_charge
                    && self.rules.closing_volley == ClosingVolley::AtChargeStart
                    && self.ground_cover() != s.defender_cover
                    && self.troops[0].is_some()
            }
            // 4.1: how the gunners fight a sallying garrison.
            "gunner_melee" => sally,
            // 3.1: the garrison's fire at a battery it can reach.
            "fire_at_gunners" => {
                battery
                    && self.rules.small_arms_need(s.defender_troops, Cover::Open, s.battery.map_or(0, |b| b.distance))
                        <= 20
            }
            // 4.1, 5
            _ => quality("melee_").or_else(|| quality("morale_")).unwrap_or(true),
        }
    }
}

/// The largest [`Assault::size_estimate`] solved: a few seconds of CPU
/// and under a gigabyte on the reference machine. Raised from 5 million
/// when the states were cut (see "The solve's cost"), which halved the
/// solve for an estimate: the default farm, 5.6 million under
/// `fire_at_gunners = allowed`, is solved exactly rather than by the
/// `cautious` fallback (3.7 s of CPU and 0.65 GB under a load of about 2).
pub const SOLVER_LIMIT: u64 = 6_000_000;

impl Assault {
    /// The defenders are flanked and test only when a charge reaches them
    /// (`flanked_when = contact`).
    fn flanked_at_contact(&self) -> bool {
        self.setup.defender_flanked && self.rules.flanked_when == FlankedWhen::Contact
    }

    /// A rough count of the states of the largest step: the outside side's
    /// firing and remaining figures, the holders' figures (and, under a
    /// bombardment, their figures before it), and the distances of either
    /// side outside the position.
    pub fn size_estimate(&self) -> u64 {
        let a = u64::from(self.setup.attacker_figures) + 1;
        let d = u64::from(self.setup.defender_figures) + 1;
        let retreat = self.rules.retreat_distance;
        let distances = u64::from(self.farthest[0] + retreat) + 1;
        let shooters = if self.troops[0].is_some() { a * (a + 1) / 2 } else { a };
        // The defenders' figures before the battery fired, at most its
        // greatest salvo more, summed over the battery's crew figures left
        // where the garrison may shoot them (fewer guns firing, smaller salvos).
        let bombarded = match (&self.battery, self.setup.battery) {
            (Some(salvos), Some(battery)) => {
                let crews = if self.gunner_need.is_some() { battery.guns * battery.crew_figures } else { 0 };
                let full = battery.guns * battery.crew_figures;
                (0..=crews)
                    .map(|crew| {
                        let firing = (full - crews + crew).div_ceil(battery.crew_figures) as usize;
                        let hits = if firing == 0 {
                            0
                        } else {
                            salvos[firing - 1][0][0].guns * salvos[0][0][0].gun.max_hits()
                        };
                        d.min(1 + u64::from(hits))
                    })
                    .sum()
            }
            _ => 1,
        };
        let mut size = shooters * d * bombarded * distances;
        // The `sally` key: the garrison's places out of the farm, going and
        // coming back, and in contact with the guns (measured at the default
        // farm: the solve's CPU 7.7 times the farm's without it).
        if let (true, Some(battery)) = (self.sally, self.setup.battery) {
            size *= 1 + 2 * u64::from(battery.distance.div_ceil(self.move_inches[DEFENDER as usize].max(1)));
        }
        // Defenders outside a position the attackers took: their firing and
        // remaining figures, the attackers', their distances.
        if self.rules.defender_failure == DefenderFailure::RetreatAndRally {
            size += d * (d + 1) / 2 * a * u64::from(self.farthest[1] + retreat + 1);
        }
        size
    }
}
