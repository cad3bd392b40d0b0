//! The `firefight` scenario: two units at a given distance exchange fire each
//! turn (3.1-3.3, all shooting simultaneous in phase 5 of 2.1), test morale
//! after two or more hits (5.4 (1), 5.6), rout on failure (5.7), stand still
//! to recover from shaken (2.4), and shatter at three quarters losses (5.3) or
//! a rout score of 0 or less, until one routs off (back past its `room`),
//! shatters, surrenders (5.8), or the turn limit. The exact solver is an
//! absorbing Markov chain over (figures, guns, shaken, room left, general,
//! routed, off the table, returned) per side, propagated turn by turn as
//! `markov::absorb` does. That chain ([`Firefight`]) is the old, fixed
//! reading: after every rout the enemy is back at the firefight distance.
//!
//! # On the decision model ([`FireGame`], the catalogue's `firefight`)
//!
//! Issue 15 item 1: by 2.11 and 3.1 a rout opens a gap that only moves close.
//! [`FireGame`] keeps each unit's place (its `room` left: advancing adds to
//! it, falling back and routing take from it; the gap is the start distance
//! less both advances), so the distance after every rout stays open. Each
//! turn starts with the initiative (2.1, issue 32 item 3: "Roll for
//! initiative. High-scoring side picks Side A or Side B this turn"): each
//! side wins it half the time (2.1 names no die and no modifier; read as a
//! D10 each, ties rolled again, as the assault's square reads it), and the
//! winner decides ([`ORDER_DECISION`]) to be side A, moving first, or side
//! B, moving after it has seen A's move. Bold takes side A (it means to
//! advance, and makes the enemy answer its move), cautious side B (it
//! waits to see). Under best play moving second is never worse in a
//! zero-sum game (the minimax inequality: the second mover answers each
//! first move), so the winner takes B except where the two orders are
//! worth the same, when the first listed, A, stands. The interpretation
//! `firefight_initiative` switches the roll off (`attacker_first`: the
//! attacker is side A every turn, the firefight before issue 32, in
//! which the defender saw every attacker move: at 8 against 8 from 8"
//! over 20 turns, a stand-up fight under best play, the attacker wins
//! 33.1% and the defender 39.8% (35.2% and 38.8% with the half-or-whole
//! moves, as the issue measured them), where with the roll each wins
//! 37.5%, as mirrored sides must).
//! With a battery on either side nothing is rolled: a battery never moves,
//! so the order changes nothing. Then, side A first and side B after
//! it, each infantry unit not shaken decides ([`MOVE_DECISION`]),
//! by the whole inch (issue 32 item 1: 2.11's rates are maximums, and 3.1
//! lets a unit "make half a move and fire"): hold and fire; close any
//! whole number of inches up to half a move (2" in line, 2.11) and fire at
//! the moving penalty (3.1, 3.3 -2), or more, up to a whole move (4"), and
//! not fire; or retire, same facing (2.12), at half speed. Never closer
//! than `no_closer_than` (2.2, 2"), never back off its own edge by choice
//! (a surrounded unit has nowhere to fall back to).
//!
//! Retiring (issue 32 item 2) is the interpretation `retire_speed`. The
//! default, `printed`, reads 2.12's "Retire, same facing: 1/2 speed" as its
//! table reads every other entry, a cost: each inch back spends two of the
//! move, so a unit in line retires at most 2" (its whole move, and no
//! fire) or 1" (half its move, and fire at -2, 3.1). The other reading,
//! `half_move`, is the old one: up to half a move back (2") and fire. The
//! default is argued from the table's own column ("Cost (X2 if unsteady or
//! grade E-F)"): the half speed is what the retreat costs, and 3.1's half
//! a move is half the move spent, whatever it was spent on. Batteries never move (3.1:
//! "Artillery may not move and fire"); a battery whose target is within its
//! canister range, which ballshot also reaches, decides its ammunition
//! ([`AMMUNITION_DECISION`]) wherever the two land differently: at a
//! battery (3.4's effects differ), and at infantry too (3.2: ballshot hits
//! soft cover on 8 where canister needs 9, heavy ballshot hard cover on 9
//! where canister needs 10; in the open canister's 6 beats ballshot's 8).
//! (The choice was once offered only against a battery, so a battery
//! always fired canister at infantry in cover.) Aims are precomputed for
//! every distance up to one past the longest reach (beyond it nobody fires,
//! so farther distances share one law). Positions move in whole inches.
//!
//! A shaken unit (issue 32 item 5) does not move (as before), but whether
//! it fires is its decision each turn it is shaken, part of its `move`:
//! `hold` (it fires at -2, 3.3, and stays shaken) or `stand to recover`
//! (2.4: "the unit must stand still for a full turn. If it moves, shoots,
//! or fights, it may not recover that turn"; it holds its fire and is
//! steady at the turn's end). 2.4 says what recovering costs, not that a
//! shaken unit must try, so the choice is the player's; out of range the
//! two are the same (a unit with nothing to shoot at recovers either way).
//! `bold` and `cautious` both read `shaken_policy` (default `recover`):
//! their names are about the approach, and a shaken unit does not move,
//! so neither name argues for firing or standing; `shaken_policy` stays
//! the reading of the old chain [`Firefight`], of a battery (which never
//! decides; the decision is offered to infantry), and of the heuristics.
//! Best play both ways: one turn, a shaken unit's fire is worth something
//! and its recovery nothing; two turns from 4" against a unit one volley
//! from breaking, firing now (0.1808) beats recovering to fire steady
//! next turn (0.16), both hand-worked in `tests/brigades/shaken.rs`. At
//! the default (24 against 24 from 4" over 30 turns) best play's law is
//! unchanged to the printed six digits (attacker 0.430439 under attack,
//! 0.457903 each in the stand-up fight; 8 against 8 from 8" over 20
//! turns, 0.374653 each): a routed unit stands at least 6" off (a rout is
//! at least 4"), at far range, where its shaken fire hits on a natural 10
//! alone, and recovering is the better or an equal choice wherever it is
//! reached. The table's cost: the shaken side's second option adds a
//! class (2, not fired) to the worths after moves where it is in range,
//! and a second move to each of its pairs: at the default 18.6 and 19.3 s
//! of CPU against 11.6 and 11.6 s without the choice, the memory
//! unchanged at 586 MB (`examples/solve_time brigades firefight`,
//! release, under `/usr/bin/time -v`, the two builds alternated,
//! 2026-11-28, the machine at a load of 7 to 12 on its 2 cores from
//! other builds). Issue 32's 2 s budget is further off for it.
//!
//! A router's longer rout (5.7.3: "A unit may choose to rout back more
//! than the required distance, but no more than 18\"") is the player's
//! choice by the text, and is not offered yet: every rout goes its rolled
//! distance. It falls inside the turn's chance law (after both sides'
//! simultaneous tests and rout rolls), so the dense table, which sums the
//! product of the two sides' laws against the next turn's worths, would
//! take a best extra distance for each rout outcome; left for a later
//! session (issue 32).
//!
//! Policies: `cautious` holds (it fires where it stands and never closes,
//! the old `stand`); `bold` closes back to the start distance as the old
//! fixed reading did, a whole move while it cannot reach, half a move
//! (firing) while farther than the start distance; a bold battery fires
//! canister, a cautious one ballshot. `best` is backward induction on the
//! margin (win minus loss), or on each side's win chance (`objective`).
//!
//! # Solving best play (issues 13 and 15, "Speed")
//!
//! Two infantry units (no battery, neither surrounded, 7.13 returns off,
//! any attached general's charisma known rather than rolled, at most 8
//! move options a side: a move of at most 5") are solved on
//! a dense table, [`DenseSolver`]: every state of a turn (each side's
//! strength, shaken or not, its general, and its place, in steps of the
//! greatest common divisor of the moves and rout distances, 1" now that
//! moves go by the whole inch) has an index,
//! so a state's next states are found by arithmetic rather than by
//! enumerating its step, and the turn's chance law, the product of the two
//! sides' laws (simultaneous fire: each side's losses, test and rout
//! depend only on its own state, whether it fired, and the fire it took
//! from the enemy's state at the start of the phase), is never built: each
//! side's law is tabulated once by (state, fired, incoming fire) and the
//! product is summed straight against the next turn's worths, once for
//! each pair of move classes (held, moved and fired, moved and not fired)
//! after the moves, whatever the inches, and only once where neither unit
//! reaches the other (read
//! straight off the next turn where neither side's turn then holds a
//! chance). Where every side playing `best` maximises its margin the game
//! is zero-sum and the table keeps the attacker's margin alone. The
//! `routed` metric, which no decision depends on, is carried only by the
//! forward walk that gives the law of outcomes.
//!
//! With 1" places a side has twice the places, so a square table of both
//! sides' places would hold four times the states (3.1 M at the default,
//! past [`DENSE_MAX_STATES`], and 670 MB for the worths after moves
//! alone). Half of that square is places nobody reaches: the gap is never
//! less than `no_closer_than` (2.2; a rout and a retreat only widen it), so
//! the table keeps only the places where it is at least that (`offsets`,
//! a triangle: a side's room runs from 1" to the most it can advance
//! with the enemy at its edge, and the two rooms together to the start
//! distance less 2" above the two starting rooms). Its states are laid out
//! by both sides' cores first and then the place, so that a rout (which
//! only narrows a side's room) lands at the same offset within another
//! pair of cores' block. The default, 24 against 24 from 4" over 30
//! turns, is 1,587,600 states a turn (36 cores a side, 1,225 places; 47.6
//! M state-turns); it solves, best play and the exact law included, in
//! 7.8 s wall and 8.8 s of CPU (two threads, the machine loaded by other
//! builds; the 2" table of the half-or-whole moves took 1.6 s) and 399 MB
//! (`examples/solve_time`, release, under `/usr/bin/time -v`). Each pair
//! of cores' worths after moves are worked out in a buffer of their own
//! just before the block's choices read them (moves change places, never
//! cores), not for the whole table at once: 567 MB and 11.8 s of CPU
//! before. Short of issue 32's 2 s: about a
//! third of the time goes to the turn's laws summed after each pair of
//! move classes (the places in reach grow 3.5 times: seven gaps of 2" to
//! 8" where there were four, each along twice as many places), and a
//! little more to each state's choice among up to 7 by 7 move pairs
//! (there were at most 4 by 4). Since then (2026-11-27, late) the
//! defender's best reply is worked out once for each place after the
//! attacker's move and that move's class, which is all it depends on,
//! and shared by every attacker option landing there (`replies`); a
//! place's worths after moves are worked out only for the classes some
//! pair reads there (`read`); and a state's sums over the defender's law
//! are kept by the attacker's landing, so its classes sum each landing
//! once (`Resolved`). Each keeps the same sums in the same order: the law
//! is the same to the bit. That took the default from 11.0 s of CPU to
//! 8.7 s (three runs each, alternated, the machine at a load of 6 to 9 on
//! its 2 cores, so wall times of 9 to 16 s said little), the memory
//! unchanged at 397 MB: still past the 2 s budget. What is left is memory
//! bound: the sum over the defender's law reads the next turn's worths in
//! up to 15 blocks of other cores a landing (the loads stall, not the
//! arithmetic), and the forward walk (a seventh of the time) spreads each
//! state's mass over the same product of laws. The forward walk is cut
//! into a fixed two runs (`dense::FORWARD_RUNS`), not one a thread, so
//! that the law is the same to the bit on any thread count
//! (`the_dense_law_is_the_same_to_the_bit_on_any_thread_count`; one
//! thread and two differed by 2e-18 before). The choices keep each option's index in
//! its list in 3 bits, for each order of the moves, and each side's pick
//! of order (eight bytes a state a turn). `--explain`
//! ([`DenseSolver::explain`]) reads each side's first decision off the
//! table and, since a zero-sum table keeps the margin alone, walks the
//! table's choices backwards once more for both sides' chances. A
//! test (`dense_solver_matches_the_generic_solver`) checks the table
//! against the generic solver code by code, under six plans (both
//! objectives, best against each heuristic) and eight set-ups (distances 2"
//! to 10", rifles, an attached general with 7.5 danger, shaken units that
//! fire, the first rout ending the fight, the old `half_move` retreat, an
//! odd 3" move, and the attacker always first). The table is bounded by
//! [`DENSE_MAX_STATES`] and [`DENSE_MAX_STATE_TURNS`].
//!
//! Where the cost stood (2026-11-28, with the shaken unit's choice): 19.9
//! s of CPU and 586 MB at the default (load 3). Every state is solved
//! every turn: 1,587,600 states, 2.6 M `worth` calls, 25 M attacker
//! outcomes and 100 M inner multiply-adds a turn, 3 G over the 30 turns
//! (`perf`: `worth` 52%, the backward block 20%, `decide_order` 11%, the
//! forward walk 8%).
//!
//! Where it stands (2026-11-28, sixth stop): 17.6 to 18.6 s of CPU and 586
//! MB at the default against 17.4 to 20.7 s before (`examples/solve_time
//! brigades firefight`, release, `/usr/bin/time -v`, the two alternated
//! three times, the machine's load leaving the solve about one core); over
//! 10 turns (`turns=10`, alternated) 5.76 to 5.95 s of user CPU on one
//! thread against 6.40 to 6.77, and on two threads 5.75 s of CPU (user and
//! system) and 3.06 s wall against 7.40 s and 3.79 s. What paid, each the
//! same sums in the same order (the law the same to the bit): the forward
//! walk reads only the states some buffer was spread into (a bit a state; a
//! quarter hold mass) and fills its buffers by writing, since a zeroed page
//! read first is copied at its first write, each copy flushing both cores'
//! address caches (system time 1.2-1.6 s to 0.5 s); and one reply for every
//! class of the first move where all answers leave the units out of reach
//! (they were the same three times over). What the counts promised and did
//! not pay (built, measured, left out): a defender core's 36 blocks in one
//! task with its sums in a stamped table (40 MB a task) cut a turn's sums
//! from 11.7 M (139 M multiply-adds) to 3.26 M (48 M) and left the CPU
//! level (22.3-22.9 s against 21.6-22.0; over 10 turns on one thread
//! 6.3-6.9 against 5.7-6.2): each of the 25 M attacker outcomes a turn then
//! reads its sum from a table past the caches, where the one-law cache (40
//! KB) is nearest; walking the task by the defender's room step so a step's
//! sums (1 MB) stay cached came out level, and walking each block so the
//! one-law cache lasts across the attacker's places slower (6.6 s against
//! 6.0-6.4). Splitting each law into the volley (16 laws a side of 4.75
//! volleys, 7 in all) and the target's reaction (3.7 outcomes) would take
//! 5.9 M shared sums a turn (20.8 M multiply-adds) and 15.5 M to mix them:
//! fewer multiply-adds, the same far lookups; not built. Profile now:
//! `worth` 53% (the attacker outcomes' lookups more than the inner sums),
//! the backward block 16% (mostly the replies' comparisons), the forward
//! spreading 11%, `decide_order` 10%. The 2 s budget is about five times
//! off (12.3 s wall before on a quiet machine, 22.2 s of CPU;
//! now in CPU 17.6 s against the 4 s two cores give in 2 s); closing it needs
//! the sums as streaming, vectorised passes (each defender reaction summed
//! along whole rows of the next turn's worths, a shifted multiply-add:
//! about 62 M in order a turn against 25 M scattered lookups and 139 M
//! scattered loads), and fewer states decided (below), the choices at 47.6
//! M state-turns alone taking about 4 s of CPU.
//!
//! How much the last would save, measured (2026-11-28, fifth stop, by a
//! throwaway count in the forward walk at the default): under the solved
//! play about 390,000 of the 1,587,600 states hold mass in a turn (1,024
//! after the first turn, 34,204 after the third, 438,165 at the last).
//! Backward induction needs every state some play of both sides reaches:
//! walked forward over every pair of moves, 11,043 after the first turn,
//! 347,753 after the third, and from the thirteenth on the same 1,041,434
//! (66%): 57% of the 47.6 M state-turns the table solves, so pruning to
//! them would save at most 43% of the backward pass, less the cost of the
//! forward walk over every pair of moves that finds them (done naively,
//! state by state and outcome by outcome, it took longer than the solve;
//! the attacker's and defender's landings would have to be marked as
//! products, by bitsets of rooms). `perf` puts half of `worth`'s time on
//! the load of the next turn's worths in the inner sum: the table (38 MB)
//! is read from the last-level cache, so sharing sums across blocks pays
//! only where the shared sum is read back from nearer than that (as
//! measured since: see the three levers above).
//!
//! The initiative (issue 32 item 3) on the table: a state's worth is half
//! the worth of the order the attacker picks when it wins the initiative
//! and half the defender's, each order solved as the attacker-first order
//! was (the first mover's option against the second's best reply to it).
//! The worths after moves, the sum over the two sides' laws that takes
//! most of the time, depend only on where the units end and how they
//! moved, not on who moved first, so both orders read the same buffer
//! (the pairs of moves both orders reach are the same: each side closes
//! at most to 2" from wherever the other stands); only the replies and
//! choices are worked out twice, and the forward walk spreads a state's
//! mass twice, half each, where the two wins of the initiative lead to
//! different moves (once where they lead to the same). At the default (24
//! against 24 from 4" over 30 turns, `examples/solve_time`, release,
//! under `/usr/bin/time -v`, 2026-11-28, the machine at a load of 10 to
//! 16 on its 2 cores from other builds, so CPU times are the measure):
//! 12.5 and 12.9 s of CPU and 585 MB rolled (13.4 s before the forward
//! walk spread a state once where both wins lead to the same moves; the
//! same law), against 8.8 and 9.1 s and 583 MB with
//! `firefight_initiative = attacker_first` on the same code (8.7 s and
//! 397 MB before: the choices take eight bytes a state a turn where they
//! took four). Still past the 2 s budget, within the 1 GB. Under best
//! play at the default the attacker wins 43.0% (42.2% with the attacker
//! always first), and in the stand-up fight each side 45.8%, 8.4% drawn
//! (42.8 / 47.0 / 10.3 before). The start-distance tables below were
//! measured with the attacker always first.
//!
//! Everything else (batteries, the `ammunition` decision, 7.13, 5.8, a
//! rolled charisma) goes to the generic solver of [`crate::game`] within
//! [`GAME_MAX_SIZES`] (8 figures against 8 in about a second); beyond it a
//! side asked for `best` plays `bold` and the output says so. The measured
//! cost of that fallback (these two paragraphs' 8 against 8 and 24 against
//! 24 figures were measured with the old half-or-whole moves and the old
//! retreat, before issue 32, and not measured again since): 8 against 8 from 8" over 30 turns, under best
//! play by both the attacker wins 44.2% and loses 47.9%; an attacker
//! playing bold against a defender at its best wins 19.0% and loses 71.9%
//! (49 points of margin lost); both sides bold, 47.5% and 47.7%. At the
//! default, 24 against 24 from 4" over 30 turns: best play by both 42.4%
//! and 46.3%; a bold attacker against the best defender 25.6% and 73.1%
//! (44 points lost); both bold 41.3% and 56.2%, so between two bold sides
//! the fallback moves the margin by 11 points. Bold is a poor stand-in for
//! best play, which is why the dense table matters.
//!
//! Where the generic solver must answer, the fallback's cost at sizes it
//! solves (grade D muskets, 30 turns, each figure the attacker's win and
//! loss chance in percent; measured with `solve_time brigades firefight
//! attacker.figures=N defender.figures=N KEYS attacker.policy=P
//! defender.policy=Q`, and pinned at 6 against 6 and the battery by
//! `the_fallback_s_gap_to_best_play_where_the_generic_solver_answers`):
//!
//! - A surrounded defender (5.8, `defender.surrounded=true`), from 4": 6
//!   against 6, best play by both 46.2/45.4; a bold attacker against the
//!   best defender 45.9/45.9 (0.8 points of margin lost); a bold defender
//!   against the best attacker 46.3/39.2 (6.3 lost); both bold 45.9/45.9.
//!   (With the half-or-whole moves: 47.6/45.5, 45.9/45.9, 47.9/44.1; and 8
//!   against 8, 49.1/47.3; 47.5/48.7; 50.5/45.6; both bold 47.8/48.4.)
//! - First routs off the table (7.13,
//!   `rules.optional_first_rout_off_table=true`), from 4": 6 against 6,
//!   best play by both 44.8/46.2; a bold attacker 38.3/47.7 (8.0 points
//!   lost); a bold defender 46.3/39.2 (8.6 lost); both bold 45.9/45.9.
//!   (With the half-or-whole moves: 46.3/46.8, 34.9/60.5, 47.9/44.1; 8
//!   against 8, 47.7/48.1; 34.9/62.7; 50.5/45.6; from 8", 44.2/47.9;
//!   18.8/73.0; 51.8/40.8; both bold 47.5/47.7.)
//! - 7 muskets against a field battery of 2 guns and 3 gunners
//!   (`attacker.figures=7 defender.weapon=field_gun defender.guns=2
//!   defender.figures=3`, 96 of the 100 size states): from 8", best play by
//!   both 28.1/67.9, a bold attacker 20.0/76.7 (16.8 points lost), the same
//!   with the whole-inch moves; from 12" (half-or-whole moves), 0.0/64.0
//!   against 10.2/87.4 (13.1 lost); from 4" within 0.1 point.
//!   The battery's bold (canister) is its best play at all three: the
//!   `ammunition` decision's cost shows against cover, as in
//!   `a_heavy_battery_fires_ballshot_at_hard_cover_under_best_play` (3.19%
//!   a win with ballshot, 0.80% with canister).
//!
//! So beyond [`GAME_MAX_SIZES`] a bold side gives up from 1 to 6 points of
//! margin against or as a surrounded side, and from 8 to 17 points (50 with
//! the old moves from 8") as the attacker under 7.13 or against a battery:
//! read such a sampled answer as bold play's, not as best play's.
//!
//! # Start distance under best play
//!
//! The default purpose is an attack (`purpose = attack`): the attacker must
//! drive the defender off (rout, shatter or make it surrender) by the turn
//! limit, and a defender still in the field then has held. Best play is
//! zero-sum on the attacker's success and nothing is undecided. 24 against
//! 24 (grade D muskets, 24" of room each) over 30 turns, moves by the whole
//! inch, the printed retreat, the attacker's chance to win (the rest is
//! the defender's) by start distance (`cargo run --release -p
//! volley-kernel --example solve_time -- brigades firefight distance=D`;
//! every distance on the dense table):
//!
//! | start | 4" | 5" | 6" | 7" | 8" | 9" | 10" | 11" | 12" |
//! | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
//! | attacker wins | 42.19% | 41.82% | 41.57% | 35.74% | 35.50% | 30.67% | 30.44% | 30.08% | 30.08% |
//!
//! | start | 13" | 14" | 15" | 16" | 17" | 18" | 19" | 20" |
//! | --- | --- | --- | --- | --- | --- | --- | --- | --- |
//! | attacker wins | 30.08% | 29.57% | 28.88% | 29.46% | 28.02% | 28.75% | 27.06% | 27.93% |
//!
//! No step between neighbouring distances reaches 6 points. The two
//! largest are rules edges: 6" to 7" (5.8 points), where the attacker can
//! no longer reach close range (4", 3.2) with the half move that still
//! fires (2", 3.1), and 8" to 9" (4.8 points), beyond musket range (8"),
//! where neither side fires at the start and the attacker must close into
//! the defender's full volley. Farther out the chance falls slowly, with
//! the turns the approach costs, by less than a point an inch; it rises
//! by less than a point from 15" to 16", 17" to 18" and 19" to 20" (the
//! odd distances' last inch of approach falls differently against the 4"
//! move and 2" half move; not worked out further). Before the whole-inch
//! moves (half or a whole move, nothing between) the stand-up fight's
//! table had a sawtooth (from 10" both sides stood off and 99.9% of fights
//! were drawn), and the attack 42.3% from 4", 35.6% from 8", 30.6% from
//! 10", 30.1% from 12".
//! `start_distance_sweep_under_attack` checks the steps at 8 against 8
//! from 4" to 20" over 10, 20 and 30 turns, and
//! `start_distance_sweep_at_twelve_figures` the stand-up fight at 12
//! against 12 from 2" to 16", which no longer stands off.
//!
//! In the stand-up fight (`purpose = stand`, the same here as `manoeuvre`:
//! no unit leaves the fight of its own accord) a fight still going at the
//! limit is won by nobody, so a side that falls behind may stand off out
//! of range and play for the draw, and the share of draws grows with the
//! start distance.
//!
//! Either side may be infantry (musket or rifle) or a battery (a gun type):
//! its `figures` are then its gunners and `guns` its actual guns. A battery
//! rolls a die per actual gun its crews can serve (3.1: a model needs 3 crew
//! for 2 dice, 2 for 1; [`battery_dice`], with the interpretations
//! `battery_crew` and `battery_gun_loss`), canister within its canister range
//! and ballshot beyond it up to its ballshot range (3.2, 3.6). Each hit on a
//! battery rolls again on the counterbattery table (3.4, read from
//! [`super::fire::Counterbattery`]): ballshot hits miss on 1-7, take a gunner
//! on 8-9 and a gun and a gunner on 10; small arms and canister take a gunner
//! on 5-10. The gunners are the battery's figures for morale (5.x: losses,
//! half strength, 3/4 shatters it, rout hits by its size); which hits count
//! for its test is `battery_hits`. A routing battery falls back with its guns
//! like any unit (5.7.3 makes no exception); in the chain it is met at the
//! same range again, as infantry is, and on the decision model it keeps its
//! new place. Guns are never dense (3.5), nor is infantry in line,
//! so ballshot gets no dense bonus here; a battery cannot skirmish.
//!
//! Order within a turn: a unit off the table (7.13) rolls to return at the
//! start of movement; both units fire with the figures they had at the start
//! of the phase; hits come off; a unit now at 3/4 losses is shattered (no
//! test); a unit with 2 or more hits tests (one test per phase, 2.1), and on
//! failure rolls on the rout table, takes its rout hits (which may shatter
//! it) and falls back the rout distance, shaken. With danger to generals (7.5)
//! an attached general of a unit hit twice or more rolls after the test. A
//! shaken unit that held its fire and did not rout this turn recovers at the
//! end of the turn.
//!
//! 7.13 First rout off-table (`optional_first_rout_off_table`, with
//! `firefight_rout = reengage`): a unit's first rout back past its room takes
//! it off the table instead of out of the fight. From the next turn it rolls a
//! D10 at the start of movement and on `return_min_score` (8-10) reappears at
//! its table edge, steady (7.4); meanwhile nobody fires. It needs no move to
//! close: under `reengage` the enemy closes on a router to the firefight
//! distance after every rout, so it stands that far from the edge where the
//! router left, and fire resumes that very turn. The returned unit has no room
//! left (it stands on its edge): its next rout takes it off for good. A unit
//! still off the table when the fight ends counts as routed off.
//!
//! 5.8 Army baselines (`surrounded`): a surrounded side's `room` is the
//! distance to its centre point, past which it does not rout off but routs on,
//! with `surrounded_extra_rout_hits` (2) more rout hits on the rout that
//! passes it (`surrounded_hits`); its `ring` is how far beyond the centre point
//! the enemy on the other side stands: a rout ending that far past the centre
//! point or more leaves it no choice but to retreat into their arms, and it
//! surrenders (removed). A rout that shatters it shatters it first.
//!
//! 7.1 Pass-through fire changes nothing here (the [`super::crossing`]
//! scenario is where it does: a unit marching across a stationary firer's
//! front): a stationary unit gains targets that were in range for half of
//! their movement but not at its end. In this scenario the only movement in the
//! movement phases is the enemy closing back to the firefight distance after a
//! rout (and, with 7.13, a unit reappearing at its edge, already at that
//! distance): both approach in a straight line, so a target in range for half
//! its move is still in range at its end. Rout moves are made in the shooting
//! phase after all fire (2.1 phase 5, 5.7.4), not in a movement phase, and a
//! firefight's units never retire by choice.

use super::UNROLLED;
use super::fire::{Counterbattery, Fire};
use super::roll::Roller;
use super::{
    BatteryCrew, BatteryGunLoss, BatteryHits, Charisma, FirefightInitiative, FirefightRout, GeneralPlace, Grade,
    Nation, RangeBand, RetireSpeed, RoutRow, Rules, ShakenPolicy, SurroundedHits, Target, TestResult, Weapon,
    dice_from_figures, grade_param, invalid, roll_test, test_distribution,
};
use crate::dice::Dice;
use crate::game::{self, ATTACKER, Decision, End, Fate, Game, Law, Policy};
use crate::outcome::CodeHasher;
use crate::outcome::{Layout, Metric, WINNERS};
use crate::params::{Choice, Param, ParamError, Settings};
use crate::pmf::Pmf;
use crate::scenario::Scenario;
use rayon::prelude::*;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

/// The per-side keys of a firefight (without the side prefix): quality,
/// figures, weapon, guns, cover, modifier, general, charisma, room,
/// surrounded, ring, two_rank, nation.
pub fn side_params(side: &str, figures: i64) -> Vec<Param> {
    vec![
        grade_param(&format!("{side}.quality"), "morale grade a-f (5.5, 5.7.2, 3.3)"),
        Param::int(
            format!("{side}.figures"),
            "starting figures (a battery's: its gunners, 4 a model in 1.10)",
            figures,
            1,
            60,
        ),
        Param::choice(
            format!("{side}.weapon"),
            "musket or rifle, or light_gun, field_gun, heavy_gun: a battery (3.1, 3.2, hits on it by 3.4)",
            Weapon::Musket,
        ),
        Param::int(
            format!("{side}.guns"),
            "actual guns of a battery (3.1: a die each, crew permitting; 2 to a model, 1.4)",
            6,
            1,
            40,
        ),
        Param::choice(
            format!("{side}.cover"),
            "the target type the unit presents: normal, skirmish (it also fires at -1; not a battery), soft or hard (+1 morale vs. shooting)",
            Target::Normal,
        ),
        Param::int(format!("{side}.modifier"), "net of other shooting modifiers of its fire (3.3)", 0, -10, 10),
        Param::choice(
            format!("{side}.general"),
            "its general: in_radius, out_of_radius (-1) or attached (+charisma)",
            GeneralPlace::InRadius,
        ),
        Param::choice(
            format!("{side}.charisma"),
            "an attached general's charisma: rolled on 1D10 (1.11), or 0, 1, 2",
            Charisma::Rolled,
        ),
        Param::int(
            format!("{side}.room"),
            "inches behind it to its baseline: a rout this far or more routs it off (if surrounded: to its centre point, which it routs past, 5.8)",
            24,
            1,
            100,
        ),
        Param::boolean(
            format!("{side}.surrounded"),
            "its force starts surrounded (5.8): it routs on past its centre point with 2 extra rout hits",
            false,
        ),
        Param::int(
            format!("{side}.ring"),
            "if surrounded: inches beyond its centre point to the enemy on the other side; a rout ending that far past it surrenders (5.8)",
            12,
            0,
            100,
        ),
        Param::boolean(format!("{side}.two_rank"), "a two-rank line (7.9; needs optional_two_rank_line)", false),
        Param::choice(
            format!("{side}.nation"),
            "national modifiers in line (7.11; needs optional_national_modifiers)",
            Nation::None,
        ),
    ]
}

/// The keys of `firefight`.
pub fn params() -> Vec<Param> {
    let mut params = side_params("attacker", 24);
    params.extend(side_params("defender", 24));
    params.push(Param::int(
        "distance",
        "inches between the units (3.2: close or far range by weapon; canister or ballshot for guns)",
        4,
        1,
        40,
    ));
    params.push(Param::int("turns", "the turn limit", 30, 1, 200));
    params.extend(game::plan_params());
    params.push(game::purpose_key(
        game::Purpose::Attack,
        "rout or shatter the defender or make it surrender",
        "the attacker must drive the defender off within the limit, and a defender still in the field then has \
         held; under stand the units may also trade fire from out of reach until the limit, a draw",
    ));
    params
}

/// One side of a firefight, as configured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FireSide {
    /// Morale grade.
    pub grade: Grade,
    /// Starting figures (a battery's gunners).
    pub figures: u32,
    /// Musket or rifle, or a gun type for a battery.
    pub weapon: Weapon,
    /// A battery's actual guns (ignored for infantry).
    pub guns: u32,
    /// The target type it presents.
    pub cover: Target,
    /// Net of other shooting modifiers.
    pub modifier: i32,
    /// Where its general is.
    pub general: GeneralPlace,
    /// Its general's charisma, if attached.
    pub charisma: Charisma,
    /// Inches to its baseline (to its centre point if surrounded).
    pub room: u32,
    /// Its force starts surrounded (5.8).
    pub surrounded: bool,
    /// If surrounded: inches beyond the centre point to the enemy ring (5.8).
    pub ring: u32,
    /// A two-rank line (7.9).
    pub two_rank: bool,
    /// Its nation (7.11).
    pub nation: Nation,
    /// It starts the fight shaken (5.7.4), as after a rout before it: no
    /// key sets it (a fight starts with both units in good order); it
    /// lets a test put a shaken unit's choice (2.4) in the first turn.
    pub shaken: bool,
}

impl FireSide {
    /// A plain side: grade D, musket, in the open, general in radius.
    pub fn new(grade: Grade, figures: u32) -> FireSide {
        FireSide {
            grade,
            figures,
            weapon: Weapon::Musket,
            guns: 0,
            cover: Target::Normal,
            modifier: 0,
            general: GeneralPlace::InRadius,
            charisma: Charisma::Rolled,
            room: 24,
            surrounded: false,
            ring: 12,
            two_rank: false,
            nation: Nation::None,
            shaken: false,
        }
    }

    /// A battery of `guns` actual guns of `weapon` served by `gunners`, otherwise as [`FireSide::new`].
    pub fn battery(grade: Grade, weapon: Weapon, guns: u32, gunners: u32) -> FireSide {
        FireSide { weapon, guns, ..FireSide::new(grade, gunners) }
    }

    fn from_settings(settings: &Settings, side: &str) -> FireSide {
        let weapon: Weapon = settings.choice(&format!("{side}.weapon"));
        FireSide {
            grade: settings.choice(&format!("{side}.quality")),
            figures: settings.int(&format!("{side}.figures")) as u32,
            weapon,
            guns: if weapon.is_gun() { settings.int(&format!("{side}.guns")) as u32 } else { 0 },
            cover: settings.choice(&format!("{side}.cover")),
            modifier: settings.int(&format!("{side}.modifier")) as i32,
            general: settings.choice(&format!("{side}.general")),
            charisma: settings.choice(&format!("{side}.charisma")),
            room: settings.int(&format!("{side}.room")) as u32,
            surrounded: settings.bool(&format!("{side}.surrounded")),
            ring: settings.int(&format!("{side}.ring")) as u32,
            two_rank: settings.bool(&format!("{side}.two_rank")),
            nation: settings.choice(&format!("{side}.nation")),
            shaken: false,
        }
    }

    fn battery_side(&self) -> bool {
        self.weapon.is_gun()
    }
}

/// 3.1 The dice a gun model's crew can serve: 2 with 3 crew, 1 with 2, none with 1.
fn crew_dice(rules: &Rules, crew: u32) -> u32 {
    if crew >= rules.crew_for_two_dice {
        2
    } else if crew >= rules.crew_for_one_die {
        1
    } else {
        0
    }
}

/// 3.1 A battery's dice: one per actual gun its crews can serve. The battery
/// started with `start_guns` on models of `guns_per_model` (1.4; an odd gun on
/// a last model); `gunners` are spread over the models by `battery_crew`, and
/// destroyed guns (`start_guns - guns`) cost dice by `battery_gun_loss`.
pub fn battery_dice(rules: &Rules, start_guns: u32, guns: u32, gunners: u32) -> u32 {
    let per_model = rules.guns_per_model.max(1);
    let models = start_guns.div_ceil(per_model).max(1);
    let model_guns = |i: u32| {
        if i + 1 < models || start_guns.is_multiple_of(per_model) { per_model } else { start_guns % per_model }
    };
    let served = match rules.battery_crew {
        BatteryCrew::Even => (0..models)
            .map(|i| {
                let crew = gunners / models + u32::from(i < gunners % models);
                model_guns(i).min(crew_dice(rules, crew))
            })
            .sum(),
        BatteryCrew::Best => {
            // Most dice for the gunners: each model takes no crew, enough for
            // one die, or enough for two (more serves nothing).
            let mut best = vec![0u32; gunners as usize + 1];
            for i in 0..models {
                let mut next = best.clone();
                for crew in [rules.crew_for_one_die, rules.crew_for_two_dice] {
                    let gain = model_guns(i).min(crew_dice(rules, crew));
                    for g in crew as usize..=gunners as usize {
                        next[g] = next[g].max(best[g - crew as usize] + gain);
                    }
                }
                best = next;
            }
            best[gunners as usize]
        }
    };
    match rules.battery_gun_loss {
        BatteryGunLoss::Subtract => served.saturating_sub(start_guns.saturating_sub(guns)),
        BatteryGunLoss::Cap => served.min(guns),
    }
}

/// One volley's effect on its target: the hits that count for its morale,
/// and the figures and actual guns it loses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Volley {
    /// Hits for the morale test and danger to generals.
    pub hits: u32,
    /// Figures (gunners) lost.
    pub figures: u32,
    /// Actual guns destroyed.
    pub guns: u32,
}

/// How one side's fire lands, at the firefight's distance, steady or shaken.
#[derive(Clone, Copy, Debug)]
struct Aim {
    /// For the firer steady and shaken: the faces that hit, and the chance.
    faces: [[bool; 10]; 2],
    chances: [f64; 2],
    /// At a battery (3.4): the effect roll's faces 1..=misses miss, the next
    /// `gunners` take a gunner, the rest a gun and a gunner; with the
    /// chances of the three.
    misses: u32,
    gunners: u32,
    effects: [f64; 3],
}

impl Aim {
    /// Whether fire aimed so lands as `other` does: the same faces hit and,
    /// at a battery, the same effects (3.4). Where canister and ballshot land
    /// alike the `ammunition` decision has nothing to choose; where they do
    /// not, the battery chooses, against infantry too: ballshot hits soft
    /// cover on 8 where canister needs 9, and heavy ballshot hard cover on 9
    /// where canister needs 10 (3.2).
    fn lands_as(&self, other: &Aim) -> bool {
        self.faces == other.faces && self.misses == other.misses && self.gunners == other.gunners
    }
}

/// One side's state between turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SideState {
    /// Figures left (a battery's gunners).
    pub figures: u8,
    /// A battery's actual guns left.
    pub guns: u8,
    /// Shaken.
    pub shaken: bool,
    /// Inches left to its baseline (to its centre point if surrounded; below
    /// 0, that far beyond it).
    pub room: i16,
    /// Its attached general is still with it.
    pub general: bool,
    /// It has failed morale at least once.
    pub routed: bool,
    /// Off the table after its first rout off, and may return (7.13).
    pub off: bool,
    /// It has come back from its first rout off (7.13).
    pub returned: bool,
}

/// How a side ends a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Out {
    /// Still in the fight (or off the table, and may return: 7.13).
    In,
    /// Shattered (5.3 or 5.7.1).
    Shattered,
    /// Routed off (back past its room), or routed at all with `FirefightRout::Ends`.
    RoutedOff,
    /// Surrendered, routing into the enemy beyond its centre point (5.8).
    Surrendered,
}

/// The exact solver answers when neither side has more figures than this.
pub const EXACT_MAX_FIGURES: u32 = 24;

/// The exact solver answers when neither battery has more actual guns than this (1.6: 4-12).
pub const EXACT_MAX_GUNS: u32 = 12;

/// The exact solver answers when the sides' sizes multiply to at most this,
/// a side's size being its figures + 1, times its guns + 1 for a battery: 24
/// infantry against 24 (625) or against 12 guns with 24 gunners (8125).
pub const EXACT_MAX_SIZES: u32 = 8_200;

/// The same bound for two batteries, whose laws (gunners and guns lost) are
/// wider: 4 guns with 8 gunners against as many (2025).
pub const EXACT_MAX_BATTERY_SIZES: u32 = 2_100;

/// Where the dense table ([`DenseSolver`]) does not apply (a battery, 7.13,
/// 5.8, a rolled charisma), best play is solved by the generic solver when
/// the sides' sizes (as for [`EXACT_MAX_SIZES`]) multiply to at most this:
/// 8 figures against 8 over 30 turns solves in about a second, while 12
/// against 12 over 10 turns takes 7 s of CPU and 24 against 24 over 3 turns
/// 23 s and 1 GB (the places both sides can stand multiply the states).
/// Beyond it a side asked for `best` plays `bold`.
pub const GAME_MAX_SIZES: u32 = 100;

/// Two units shooting it out.
#[derive(Clone, Debug)]
pub struct Firefight {
    rules: Rules,
    sides: [FireSide; 2],
    /// How each side's fire lands on the other.
    aims: [Aim; 2],
    /// Dice by figures (infantry), or by guns * (figures + 1) + figures (a battery), per side.
    dice: [Vec<u32>; 2],
    /// Whether each side can reach the other at all.
    in_range: [bool; 2],
    turns: u32,
    layout: Layout,
}

/// The metrics every multi-turn scenario of this ruleset reports, in order.
pub fn multi_turn_metrics(turns: u32) -> Vec<Metric> {
    vec![
        Metric::categories(
            "winner",
            "the side left in the field when the other routed off or shattered; none at the limit or if both went; under `purpose = attack` every fight the attacker does not win is the defender's (`ended` says how each ended)",
            WINNERS,
        ),
        Metric::integer("turns", "the turn it ended (the limit if undecided)", 1, i64::from(turns)),
        Metric::integer(
            "attacker_remaining",
            "percent of the attacker's starting figures not lost, rounded down",
            0,
            100,
        ),
        Metric::integer(
            "defender_remaining",
            "percent of the defender's starting figures not lost, rounded down",
            0,
            100,
        ),
        Metric::boolean("attacker_routed", "whether the attacker failed a morale test at least once"),
        Metric::boolean("defender_routed", "whether the defender failed a morale test at least once"),
        Metric::boolean(
            "attacker_shattered",
            "whether the attacker shattered (3/4 losses or a rout score of 0 or less)",
        ),
        Metric::boolean("defender_shattered", "whether the defender shattered"),
    ]
}

/// The metrics of `firefight`: the multi-turn ones, then its own.
fn firefight_metrics(turns: u32) -> Vec<Metric> {
    let mut metrics = multi_turn_metrics(turns);
    metrics.extend([
        Metric::integer("attacker_guns_lost", "actual guns the attacker's battery lost (3.4)", 0, 40),
        Metric::integer("defender_guns_lost", "actual guns the defender's battery lost (3.4)", 0, 40),
        Metric::boolean("attacker_surrendered", "whether the attacker surrendered, routing into the enemy (5.8)"),
        Metric::boolean("defender_surrendered", "whether the defender surrendered (5.8)"),
        Metric::boolean("attacker_returned", "whether the attacker came back after its first rout off (7.13)"),
        Metric::boolean("defender_returned", "whether the defender came back after its first rout off (7.13)"),
    ]);
    metrics
}

/// Percent of `start` in `left`, rounded down.
pub fn percent(left: u32, start: u32) -> i64 {
    (left * 100).checked_div(start).map_or(0, i64::from)
}

impl Firefight {
    /// A firefight at `distance` inches with a turn limit.
    pub fn new(
        rules: &Rules,
        attacker: FireSide,
        defender: FireSide,
        distance: u32,
        turns: u32,
    ) -> Result<Firefight, ParamError> {
        Firefight::build(rules, attacker, defender, distance, turns, false)
    }

    /// The same, with `ball`: a battery within its canister range fires
    /// ballshot instead, if that reaches (the `ammunition` decision).
    fn build(
        rules: &Rules,
        attacker: FireSide,
        defender: FireSide,
        distance: u32,
        turns: u32,
        ball: bool,
    ) -> Result<Firefight, ParamError> {
        let sides = [attacker, defender];
        let names = ["attacker", "defender"];
        let mut aims =
            [Aim { faces: [[false; 10]; 2], chances: [0.0; 2], misses: 10, gunners: 0, effects: [1.0, 0.0, 0.0] }; 2];
        let mut in_range = [false; 2];
        let mut dice: [Vec<u32>; 2] = [Vec::new(), Vec::new()];
        for s in 0..2 {
            let me = sides[s];
            let enemy = sides[1 - s];
            let key = |name: &str| format!("{}.{name}", names[s]);
            validate(rules, me, &key)?;
            let battery = me.battery_side();
            // 3.2, 3.6: small arms close or far; guns canister, then ballshot.
            let (near, far) =
                if battery { (RangeBand::Canister, RangeBand::Ballshot) } else { (RangeBand::Close, RangeBand::Far) };
            let reaches = |band| distance <= rules.band_range(me.weapon, band).unwrap_or(0);
            let band = if battery && ball && reaches(far) {
                Some(far)
            } else if distance <= rules.band_range(me.weapon, near).unwrap_or(0) {
                Some(near)
            } else if distance <= rules.band_range(me.weapon, far).unwrap_or(0) {
                Some(far)
            } else {
                None
            };
            let skirmishing = me.cover == Target::Skirmish;
            dice[s] = if battery {
                // 3.1: a die per actual gun its crews can serve.
                (0..=me.guns)
                    .flat_map(|g| (0..=me.figures).map(move |f| (g, f)))
                    .map(|(g, f)| battery_dice(rules, me.guns, g, f))
                    .collect()
            } else {
                (0..=me.figures)
                    .map(|f| {
                        if me.two_rank && !skirmishing {
                            // 7.9: close-order fire of a two-rank line, one die per three.
                            dice_from_figures(f, rules.two_rank_figures_per_die, rules.two_rank_remainder_rounds_up)
                        } else {
                            // 3.1: one die per four, a remainder of three rounds up.
                            dice_from_figures(f, rules.fire_figures_per_die, rules.fire_remainder_rounds_up)
                        }
                    })
                    .collect()
            };
            if let Some(band) = band {
                in_range[s] = true;
                let score = rules.score_to_hit(me.weapon, band, enemy.cover).unwrap_or(0);
                let aim = &mut aims[s];
                for shaken in [false, true] {
                    // 3.3: grade, shaken, skirmishing, and the side's own modifier.
                    let mut modifier = me.modifier + rules.fire_grade(me.grade);
                    if shaken {
                        modifier += rules.fire_shaken;
                    }
                    if skirmishing {
                        modifier += rules.fire_disordered_or_skirmishing;
                    }
                    if !battery {
                        modifier += national_musketry(rules, me, shaken);
                    }
                    aim.faces[usize::from(shaken)] = rules.hit_faces(score, modifier);
                    aim.chances[usize::from(shaken)] = rules.hit_chance(score, modifier);
                }
                if enemy.battery_side() {
                    // 3.4: each hit on the guns rolls for its effect; unlimbered guns.
                    let table =
                        Counterbattery::new(rules, Fire::from_dice(rules, 0, 0, 0), band == RangeBand::Ballshot, false);
                    let effects = table.effect_chances();
                    aim.effects = effects;
                    aim.misses = (effects[0] * 10.0).round() as u32;
                    aim.gunners = (effects[1] * 10.0).round() as u32;
                }
            }
        }
        Ok(Firefight {
            rules: rules.clone(),
            sides,
            aims,
            dice,
            in_range,
            turns,
            layout: Layout::new(firefight_metrics(turns)),
        })
    }

    /// From the catalogue's settings.
    pub fn from_settings(rules: &Rules, settings: &Settings) -> Result<Firefight, ParamError> {
        Firefight::new(
            rules,
            FireSide::from_settings(settings, "attacker"),
            FireSide::from_settings(settings, "defender"),
            settings.int("distance") as u32,
            settings.int("turns") as u32,
        )
    }

    fn start_state(&self, s: usize) -> SideState {
        SideState {
            figures: self.sides[s].figures as u8,
            guns: self.sides[s].guns as u8,
            shaken: self.sides[s].shaken,
            room: self.sides[s].room as i16,
            general: self.sides[s].general == GeneralPlace::Attached,
            routed: false,
            off: false,
            returned: false,
        }
    }

    /// Whether side `s` fires this turn, a shaken unit as `shaken_policy`
    /// reads 2.4 (this chain's fixed reading, and a battery's in the
    /// decision model).
    fn fires(&self, s: usize, states: [SideState; 2]) -> bool {
        // 2.4: a shaken unit that means to recover must not shoot.
        self.reaches(s, states) && (!states[s].shaken || self.rules.shaken_policy != ShakenPolicy::Recover)
    }

    /// Whether side `s` can fire this turn: the enemy is in its range and
    /// both are on the table (7.13: nobody fires while either unit is
    /// off). Whether a shaken unit does is its decision in [`FireGame`].
    pub(super) fn reaches(&self, s: usize, states: [SideState; 2]) -> bool {
        self.in_range[s] && !states[s].off && !states[1 - s].off
    }

    /// The dice side `s` rolls in `state`.
    fn dice_of(&self, s: usize, state: SideState) -> u32 {
        if self.sides[s].battery_side() {
            let row = usize::from(state.guns) * (self.sides[s].figures as usize + 1);
            self.dice[s][row + usize::from(state.figures)]
        } else {
            self.dice[s][usize::from(state.figures)]
        }
    }

    /// The exact law of side `s`'s volley from `state` on the enemy.
    fn volley_law(&self, s: usize, state: SideState) -> Vec<(Volley, f64)> {
        let aim = &self.aims[s];
        let hits = Pmf::binomial(self.dice_of(s, state), aim.chances[usize::from(state.shaken)]);
        let mut law = Vec::new();
        for (h, ph) in hits.iter().filter(|&(_, p)| p > 0.0) {
            let h = h as u32;
            if !self.sides[1 - s].battery_side() {
                law.push((Volley { hits: h, figures: h, guns: 0 }, ph));
                continue;
            }
            // 3.4: of h hits, those past the misses take a gunner; of those,
            // the top faces take a gun as well.
            let [miss, gunner, gun] = aim.effects;
            for (g, pg) in Pmf::binomial(h, 1.0 - miss).iter().filter(|&(_, p)| p > 0.0) {
                let with_gun = if gunner + gun > 0.0 { gun / (gunner + gun) } else { 0.0 };
                for (k, pk) in Pmf::binomial(g as u32, with_gun).iter().filter(|&(_, p)| p > 0.0) {
                    let counted = self.counted_hits(h, g as u32);
                    law.push((Volley { hits: counted, figures: g as u32, guns: k as u32 }, ph * pg * pk));
                }
            }
        }
        law
    }

    /// Side `s`'s volley from `state`, drawn from dice: the same law as [`Firefight::volley_law`].
    #[inline]
    fn volley_sample(&self, s: usize, state: SideState, dice: &mut Dice) -> Volley {
        let aim = &self.aims[s];
        let faces = &aim.faces[usize::from(state.shaken)];
        let n = self.dice_of(s, state);
        if !self.sides[1 - s].battery_side() {
            let mut h = 0;
            for _ in 0..n {
                h += u32::from(faces[dice.d10() as usize - 1]);
            }
            return Volley { hits: h, figures: h, guns: 0 };
        }
        let (mut h, mut g, mut k) = (0, 0, 0);
        for _ in 0..n {
            if faces[dice.d10() as usize - 1] {
                h += 1;
                // 3.4: roll again for each hit on the guns.
                let effect = dice.d10();
                if effect > aim.misses {
                    g += 1;
                    k += u32::from(effect > aim.misses + aim.gunners);
                }
            }
        }
        Volley { hits: self.counted_hits(h, g), figures: g, guns: k }
    }

    /// The hits on a battery that count for its morale (`battery_hits`).
    fn counted_hits(&self, dice_hit: u32, gunners: u32) -> u32 {
        match self.rules.battery_hits {
            BatteryHits::Effects => gunners,
            BatteryHits::Dice => dice_hit,
        }
    }

    /// (pass score, morale modifier, rout modifier) of side `s` testing after
    /// `hits` this phase, with `state` already showing them.
    fn test_numbers(&self, s: usize, state: SideState, hits: u32, charisma: i32) -> (i32, i32, i32) {
        let rules = &self.rules;
        let side = self.sides[s];
        let lost = side.figures - u32::from(state.figures);
        let mut modifier = 0;
        if state.shaken {
            modifier += rules.morale_shaken;
        }
        // 5.6: each 2 hits this phase, each 25% total losses.
        modifier += (hits / 2) as i32 * rules.morale_per_two_hits;
        modifier += Rules::quarters_lost(side.figures, lost) * rules.morale_per_quarter_losses;
        if side.cover == Target::Hard {
            // 5.6: hard cover vs. shooting hits.
            modifier += rules.morale_square_or_hard_cover;
        }
        if !side.battery_side() {
            modifier += national_morale_vs_shooting(rules, side);
        }
        let mut rout = rules.rout_grade(side.grade);
        if u32::from(state.figures) * 2 <= side.figures {
            // 5.7.2: at or below half strength.
            rout += rules.rout_half_strength;
        }
        let (morale_general, rout_general) = general_modifiers(rules, side.general, state.general, charisma);
        (rules.morale_pass(side.grade), modifier + morale_general, rout + rout_general)
    }

    /// The losses of `volley` taken: `Err` when they shatter the unit (5.3).
    fn take_losses(&self, s: usize, before: SideState, volley: Volley) -> Result<SideState, SideState> {
        let side = self.sides[s];
        let mut state = before;
        state.figures = (u32::from(state.figures).saturating_sub(volley.figures)) as u8;
        state.guns = (u32::from(state.guns).saturating_sub(volley.guns)) as u8;
        if self.rules.is_shattered(side.figures, side.figures - u32::from(state.figures)) {
            Err(state)
        } else {
            Ok(state)
        }
    }

    /// Where one side goes after taking `volley` this turn: the exact law.
    fn side_outcomes(
        &self,
        s: usize,
        before: SideState,
        fired: bool,
        volley: Volley,
        charisma: i32,
    ) -> Vec<((SideState, Out), f64)> {
        let rules = &self.rules;
        let state = match self.take_losses(s, before, volley) {
            Err(state) => return vec![((state, Out::Shattered), 1.0)],
            Ok(state) => state,
        };
        if volley.hits < rules.morale_test_shooting_hits {
            return vec![((recovered(state, before, fired), Out::In), 1.0)];
        }
        let (pass, modifier, rout_modifier) = self.test_numbers(s, state, volley.hits, charisma);
        let danger = self.danger_chance(state, volley.hits);
        let mut out = Vec::new();
        for (result, p) in test_distribution(rules, pass, modifier, rout_modifier) {
            let (after, end) = self.after_test(s, state, before, fired, result);
            if danger > 0.0 {
                let mut lost = after;
                lost.general = false;
                out.push(((lost, end), p * danger));
                out.push(((after, end), p * (1.0 - danger)));
            } else {
                out.push(((after, end), p));
            }
        }
        out
    }

    /// The same as [`Firefight::side_outcomes`], drawn from dice.
    #[inline]
    fn side_sample(
        &self,
        s: usize,
        before: SideState,
        fired: bool,
        volley: Volley,
        charisma: i32,
        dice: &mut Dice,
    ) -> (SideState, Out) {
        let rules = &self.rules;
        let state = match self.take_losses(s, before, volley) {
            Err(state) => return (state, Out::Shattered),
            Ok(state) => state,
        };
        if volley.hits < rules.morale_test_shooting_hits {
            return (recovered(state, before, fired), Out::In);
        }
        let (pass, modifier, rout_modifier) = self.test_numbers(s, state, volley.hits, charisma);
        let danger = self.danger_chance(state, volley.hits) > 0.0;
        let result = roll_test(rules, dice, pass, modifier, rout_modifier);
        let (mut after, end) = self.after_test(s, state, before, fired, result);
        if danger && dice.d10() <= rules.general_danger_max {
            after.general = false;
        }
        (after, end)
    }

    /// 7.5: the chance an attached general is lost when his unit takes `hits`.
    fn danger_chance(&self, state: SideState, hits: u32) -> f64 {
        if self.rules.optional_danger_to_generals && state.general && hits >= self.rules.general_danger_hits {
            f64::from(self.rules.general_danger_max.min(10)) / 10.0
        } else {
            0.0
        }
    }

    fn after_test(
        &self,
        s: usize,
        state: SideState,
        before: SideState,
        fired: bool,
        result: TestResult,
    ) -> (SideState, Out) {
        let rules = &self.rules;
        let side = self.sides[s];
        match result {
            TestResult::Pass => (recovered(state, before, fired), Out::In),
            TestResult::Rout(RoutRow::Shattered) => (SideState { routed: true, ..state }, Out::Shattered),
            TestResult::Rout(row) => {
                // 5.7.1: rout hits by the size at the time of the test.
                let mut hits = rules.rout_hits(row, u32::from(state.figures));
                let room = state.room - rules.rout_distance(row) as i16;
                // 5.8: a surrounded unit routing past its centre point takes two more.
                let past = room < 0 && (state.room >= 0 || rules.surrounded_hits == SurroundedHits::Beyond);
                if side.surrounded && past {
                    hits += rules.surrounded_extra_rout_hits;
                }
                let figures = u32::from(state.figures).saturating_sub(hits);
                let after = SideState { figures: figures as u8, shaken: true, room, routed: true, ..state };
                let ends = rules.firefight_rout == FirefightRout::Ends;
                if rules.is_shattered(side.figures, side.figures - figures) {
                    (after, Out::Shattered)
                } else if side.surrounded {
                    // 5.8: retreating as far as the enemy beyond the centre point, it surrenders.
                    if room < 0 && i32::from(-room) >= side.ring as i32 {
                        (after, Out::Surrendered)
                    } else if ends {
                        (after, Out::RoutedOff)
                    } else {
                        (after, Out::In)
                    }
                } else if room <= 0 && rules.optional_first_rout_off_table && !state.returned && !ends {
                    // 7.13: the first rout off the table may come back.
                    (SideState { off: true, ..after }, Out::In)
                } else if room <= 0 || ends {
                    (after, Out::RoutedOff)
                } else {
                    (after, Out::In)
                }
            }
        }
    }

    /// 7.13 and 7.4: the chance a unit off the table reappears this turn.
    fn return_chance(&self) -> f64 {
        f64::from(11u32.saturating_sub(self.rules.return_min_score).min(10)) / 10.0
    }

    /// A unit back from off the table: at its edge (no room left), steady (7.4).
    fn returned(state: SideState) -> SideState {
        SideState { off: false, returned: true, shaken: false, room: 0, ..state }
    }

    /// The start of a turn's movement: where units off the table may reappear (7.13).
    fn return_law(&self, states: [SideState; 2]) -> Vec<([SideState; 2], f64)> {
        let mut law = vec![(states, 1.0)];
        let p = self.return_chance();
        for s in 0..2 {
            if states[s].off {
                law = law
                    .into_iter()
                    .flat_map(|(st, q)| {
                        let mut back = st;
                        back[s] = Firefight::returned(st[s]);
                        [(back, q * p), (st, q * (1.0 - p))]
                    })
                    .filter(|&(_, q)| q > 0.0)
                    .collect();
            }
        }
        law
    }

    fn end_code(&self, turn: u32, states: [SideState; 2], outs: [Out; 2]) -> u64 {
        self.end_code_won(None, turn, states, outs)
    }

    /// [`Self::end_code`] with the winner given (under the fight's purpose)
    /// where it is not read from who is left in the field.
    fn end_code_won(&self, winner: Option<u8>, turn: u32, states: [SideState; 2], outs: [Out; 2]) -> u64 {
        // A unit still off the table at the end is not in the field (7.13).
        let gone = |s: usize| outs[s] != Out::In || states[s].off;
        let winner = winner.map(i64::from).unwrap_or(match (gone(0), gone(1)) {
            (false, true) => 0,
            (true, false) => 1,
            _ => 2,
        });
        let guns_lost = |s: usize| i64::from(self.sides[s].guns) - i64::from(states[s].guns);
        self.layout.encode(&[
            winner,
            i64::from(turn),
            percent(u32::from(states[0].figures), self.sides[0].figures),
            percent(u32::from(states[1].figures), self.sides[1].figures),
            i64::from(states[0].routed),
            i64::from(states[1].routed),
            i64::from(outs[0] == Out::Shattered),
            i64::from(outs[1] == Out::Shattered),
            guns_lost(0),
            guns_lost(1),
            i64::from(outs[0] == Out::Surrendered),
            i64::from(outs[1] == Out::Surrendered),
            i64::from(states[0].returned),
            i64::from(states[1].returned),
        ])
    }

    fn charisma_law(&self, s: usize) -> Vec<(i32, f64)> {
        self.rules.general_charisma_law(self.sides[s].general, self.sides[s].charisma)
    }

    fn roll_charisma(&self, s: usize, dice: &mut Dice) -> i32 {
        self.rules.roll_general_charisma(self.sides[s].general, self.sides[s].charisma, dice)
    }

    /// The memo key of side `s`'s law from `states`: its own state and what
    /// of the enemy's shapes the turn (its fire, and whether it is there).
    fn law_key(s: usize, states: [SideState; 2]) -> u64 {
        let enemy = states[1 - s];
        (u64::from(pack(states[s])) << 17)
            | (u64::from(enemy.figures) << 11)
            | (u64::from(enemy.guns) << 5)
            | (u64::from(enemy.shaken) << 2)
            | (u64::from(enemy.off) << 1)
            | s as u64
    }

    /// The exact distribution given both charismas.
    fn exact_given(&self, charisma: [i32; 2]) -> Vec<(u64, f64)> {
        // The kernel's `markov::absorb`, specialised: states packed into one
        // word and hashed by multiplication, and each side's law for a turn
        // memoised by (side, its state, the enemy's strength, shaken and
        // presence), as the default 24 against 24 has tens of thousands of
        // states a turn.
        type Fast<K, V> = HashMap<K, V, BuildHasherDefault<CodeHasher>>;
        let mut memo: Fast<u64, Vec<(u32, Out, f64)>> = Fast::default();
        let mut ended: Fast<u64, f64> = Fast::default();
        let start = pack_pair([self.start_state(0), self.start_state(1)]);
        let mut current: Fast<u64, f64> = Fast::default();
        current.insert(start, 1.0);
        for turn in 1..=self.turns {
            if current.is_empty() {
                break;
            }
            let mut next: Fast<u64, f64> = Fast::with_capacity_and_hasher(current.len(), BuildHasherDefault::default());
            for (&packed, &p0) in &current {
                let states = unpack_pair(packed);
                let (one, returns);
                let branches: &[([SideState; 2], f64)] = if states[0].off || states[1].off {
                    returns = self.return_law(states);
                    &returns
                } else {
                    one = [(states, 1.0)];
                    &one
                };
                for &(states, q) in branches {
                    let p = p0 * q;
                    for (s, &c) in charisma.iter().enumerate() {
                        memo.entry(Firefight::law_key(s, states)).or_insert_with(|| self.side_law(s, states, c));
                    }
                    let law_a = &memo[&Firefight::law_key(0, states)];
                    let law_d = &memo[&Firefight::law_key(1, states)];
                    for &(a, out_a, pa) in law_a {
                        for &(d, out_d, pd) in law_d {
                            let mass = p * pa * pd;
                            if mass < 1e-300 {
                                continue;
                            }
                            if out_a == Out::In && out_d == Out::In {
                                *next.entry((u64::from(a) << 32) | u64::from(d)).or_insert(0.0) += mass;
                            } else {
                                let pair = [unpack(a), unpack(d)];
                                *ended.entry(self.end_code(turn, pair, [out_a, out_d])).or_insert(0.0) += mass;
                            }
                        }
                    }
                }
            }
            current = next;
        }
        for (packed, p) in current {
            *ended.entry(self.end_code(self.turns, unpack_pair(packed), [Out::In, Out::In])).or_insert(0.0) += p;
        }
        ended.into_iter().collect()
    }

    /// Side `s`'s law for one turn from `states`: (packed state, out, probability).
    fn side_law(&self, s: usize, states: [SideState; 2], charisma: i32) -> Vec<(u32, Out, f64)> {
        if states[s].off {
            // 7.13: off the table, it waits for its return roll.
            return vec![(pack(states[s]), Out::In, 1.0)];
        }
        let enemy = 1 - s;
        let fired = self.fires(s, states);
        let volleys = if self.fires(enemy, states) {
            self.volley_law(enemy, states[enemy])
        } else {
            vec![(Volley::default(), 1.0)]
        };
        let mut merged: Vec<(u32, Out, f64)> = Vec::new();
        for (volley, pv) in volleys {
            for ((state, out), p) in self.side_outcomes(s, states[s], fired, volley, charisma) {
                let packed = pack(state);
                match merged.iter_mut().find(|e| e.0 == packed && e.1 == out) {
                    Some(entry) => entry.2 += pv * p,
                    None => merged.push((packed, out, pv * p)),
                }
            }
        }
        merged
    }
}

/// Checks one side's configuration; `key` names its keys.
fn validate(rules: &Rules, me: FireSide, key: &dyn Fn(&str) -> String) -> Result<(), ParamError> {
    if me.two_rank && !rules.optional_two_rank_line {
        return Err(invalid(&key("two_rank"), "needs the optional rule optional_two_rank_line (7.9)"));
    }
    if me.nation != Nation::None && !rules.optional_national_modifiers {
        return Err(invalid(&key("nation"), "needs the optional rule optional_national_modifiers (7.11)"));
    }
    if me.figures > 60 {
        return Err(invalid(&key("figures"), "at most 60 figures"));
    }
    if me.room > 100 || me.ring > 100 {
        return Err(invalid(&key("room"), "room and ring are at most 100 inches"));
    }
    if me.battery_side() {
        if me.guns == 0 || me.guns > 40 {
            return Err(invalid(&key("guns"), "a battery has 1 to 40 actual guns"));
        }
        if me.cover == Target::Skirmish {
            return Err(invalid(&key("cover"), "a battery is never a skirmish target: normal, soft or hard"));
        }
        if me.two_rank {
            return Err(invalid(&key("two_rank"), "a battery has no two-rank line (7.9 is for foot)"));
        }
        if me.nation != Nation::None {
            return Err(invalid(&key("nation"), "national modifiers are for infantry (7.11)"));
        }
    }
    Ok(())
}

/// A side's state in 25 bits: figures (6), guns (6), shaken, room (8, from
/// -128; a state that goes on has at most 100 inches either way), general,
/// routed, off, returned.
fn pack(state: SideState) -> u32 {
    u32::from(state.figures)
        | (u32::from(state.guns) << 6)
        | (u32::from(state.shaken) << 12)
        | ((state.room.clamp(-128, 127) + 128) as u32) << 13
        | (u32::from(state.general) << 21)
        | (u32::from(state.routed) << 22)
        | (u32::from(state.off) << 23)
        | (u32::from(state.returned) << 24)
}

fn unpack(packed: u32) -> SideState {
    SideState {
        figures: (packed & 0x3F) as u8,
        guns: (packed >> 6 & 0x3F) as u8,
        shaken: packed >> 12 & 1 == 1,
        room: ((packed >> 13) & 0xFF) as i16 - 128,
        general: packed >> 21 & 1 == 1,
        routed: packed >> 22 & 1 == 1,
        off: packed >> 23 & 1 == 1,
        returned: packed >> 24 & 1 == 1,
    }
}

fn pack_pair(states: [SideState; 2]) -> u64 {
    (u64::from(pack(states[0])) << 32) | u64::from(pack(states[1]))
}

fn unpack_pair(packed: u64) -> [SideState; 2] {
    [unpack((packed >> 32) as u32), unpack(packed as u32)]
}

/// 2.4: a shaken unit that stood still all turn (did not shoot, did not rout) recovers.
fn recovered(mut state: SideState, before: SideState, fired: bool) -> SideState {
    if before.shaken && !fired {
        state.shaken = false;
    }
    state
}

/// 5.6 and 5.7.2: the morale and rout modifiers of a side's general.
pub fn general_modifiers(rules: &Rules, place: GeneralPlace, still_attached: bool, charisma: i32) -> (i32, i32) {
    match place {
        GeneralPlace::InRadius => (0, 0),
        GeneralPlace::Attached if still_attached => (charisma, charisma),
        // A lost general (7.5) leaves the unit with no general in radius.
        _ => (rules.morale_no_general, rules.rout_no_general),
    }
}

/// 7.11: national musketry modifiers (Britain +1 if steady, Russia -1), grade
/// A-E infantry only.
pub fn national_musketry(rules: &Rules, side: FireSide, shaken: bool) -> i32 {
    if !rules.optional_national_modifiers || side.grade == Grade::F {
        return 0;
    }
    match side.nation {
        Nation::Britain if !shaken && side.cover != Target::Skirmish => 1,
        Nation::Russia if side.weapon == Weapon::Musket => -1,
        _ => 0,
    }
}

/// 7.11: national morale modifiers vs. shooting hits for a unit in line
/// (Austria and later Prussia -1, Britain +1), grade A-E infantry only.
pub fn national_morale_vs_shooting(rules: &Rules, side: FireSide) -> i32 {
    if !rules.optional_national_modifiers || side.grade == Grade::F || side.cover == Target::Skirmish {
        return 0;
    }
    match side.nation {
        Nation::Austria | Nation::PrussiaLate => -1,
        Nation::Britain => 1,
        _ => 0,
    }
}

impl Scenario for Firefight {
    fn layout(&self) -> &Layout {
        &self.layout
    }

    fn sample(&self, dice: &mut Dice) -> u64 {
        let charisma = [self.roll_charisma(0, dice), self.roll_charisma(1, dice)];
        let mut states = [self.start_state(0), self.start_state(1)];
        let return_min = self.rules.return_min_score;
        for turn in 1..=self.turns {
            for state in states.iter_mut() {
                // 7.13, 7.4: a D10 at the start of movement brings it back.
                if state.off && dice.d10() >= return_min {
                    *state = Firefight::returned(*state);
                }
            }
            let fired = [self.fires(0, states), self.fires(1, states)];
            let mut volleys = [Volley::default(); 2];
            for s in 0..2 {
                if fired[s] {
                    volleys[1 - s] = self.volley_sample(s, states[s], dice);
                }
            }
            let mut outs = [Out::In; 2];
            for s in 0..2 {
                if !states[s].off {
                    (states[s], outs[s]) = self.side_sample(s, states[s], fired[s], volleys[s], charisma[s], dice);
                }
            }
            if outs[0] != Out::In || outs[1] != Out::In {
                return self.end_code(turn, states, outs);
            }
        }
        self.end_code(self.turns, states, [Out::In, Out::In])
    }

    fn has_exact(&self) -> bool {
        let size = |side: &FireSide| (side.figures + 1) * if side.battery_side() { side.guns + 1 } else { 1 };
        let limit =
            if self.sides.iter().all(FireSide::battery_side) { EXACT_MAX_BATTERY_SIZES } else { EXACT_MAX_SIZES };
        self.sides.iter().all(|side| side.figures <= EXACT_MAX_FIGURES && side.guns <= EXACT_MAX_GUNS)
            && size(&self.sides[0]) * size(&self.sides[1]) <= limit
    }

    fn exact(&self) -> Option<Vec<(u64, f64)>> {
        // The chain grows with both strengths: 24 against 24 takes seconds,
        // 36 against 36 over a minute, two batteries of 6 guns and 12 gunners
        // minutes; beyond the bounds, Monte Carlo only.
        if !self.has_exact() {
            return None;
        }
        let mut total: HashMap<u64, f64> = HashMap::new();
        for (ca, pa) in self.charisma_law(0) {
            for (cd, pd) in self.charisma_law(1) {
                for (code, p) in self.exact_given([ca, cd]) {
                    *total.entry(code).or_insert(0.0) += pa * pd * p;
                }
            }
        }
        Some(total.into_iter().collect())
    }
}

mod dense;
mod fire_game;
mod played;

pub use dense::{DENSE_MAX_STATE_TURNS, DENSE_MAX_STATES, DenseSolver};
pub use fire_game::{AMMUNITION_DECISION, FireGame, FireState, MOVE_DECISION, ORDER_DECISION};
pub use played::FirePlayed;
