//! How long an assault the exact solver takes at each setting, in turns,
//! with the measurements behind each limit (see [`AssaultGame`](super::AssaultGame)'s
//! `solvable`): beyond them a side asked for `best` plays its fallback,
//! sampled.

/// The longest assault the solver takes, in turns, best play and the
/// heuristics alike. Best play multiplies the states (the attacker may halt
/// anywhere, the battery hold its fire): the default assault has about 0.97 M
/// states (141 k turn starts, 817 k within turns, 5.7 M transitions) once
/// they level off from the 16th turn; after that each turn adds only a
/// sweep of backward induction and one of the forward walk. Measured with
/// `solve_time huzzah assault turns=N` (release, on this two-core machine
/// at a load of about 1): the default 30 turns 1.90-1.92 s wall, 2.8-2.9 s
/// of CPU and 508-513 MB under best play (2026-11-26, five runs, once its
/// rolls ended their steps as last draws, [`Fate::draw_last`](crate::game::Fate::draw_last); 2.1-2.2 s
/// before that; 2.8 s, 3.7 s and 555 MB that morning, before the solver
/// carried one number per state, overlapped its exploration and layout
/// and skipped unreached states; 6.2 s, 8.9 s and 625 MB the day before,
/// before grouped draws, the incremental exploration and the merged free
/// order; 17.6 s of CPU before the graph's layout), 1.25 s and 287 MB
/// under bold play on both sides; 60 turns 2.70 s wall and 523 MB. Longer
/// assaults are sampled, a side asked for `best` playing `bold`.
///
/// Where the default's time goes (2026-11-28, one thread, `perf record` on
/// the release `solve_time`, the machine at a load of 4; 3.3 s of user CPU
/// in all): exploring the graph 1.3-1.5 s (the game's steps about 0.75 s:
/// the rolls' grouped laws, the quiet phases and the order options asked
/// at each replay; adding the laws on one thread about 0.4 s, a quarter of
/// it the id lookups of 5.7 M transitions, 1.9 M of them endings), laying
/// it out 0.2-0.3 s, the backward pass 0.85-0.95 s, the forward walk 0.5 s.
/// The backward pass waits on memory: 42% of its samples sit on the first
/// use of a target's worth, read from 23 MB of worths at random (30 turns
/// of 3.8 M reads). The within-turn states are 817 k: 414 k in the
/// attacker's Orders phase (up to 7 orders counted, each Down 1), 136 k
/// awaiting the defender's rally, 120 k the attacker's, 141 k turn starts;
/// dropping any one field of the state merges none of the distances and
/// edges (the three always add up to the table's 40 bands), and the
/// staggers and kills are in the outcome. Two cuts tried and dropped,
/// each slower, old and new binaries alternated three times: the states
/// of each run of equal height ordered by their nearest target (3.33-3.48
/// s of CPU before, 3.80-3.93 s after: exploration's order reads better),
/// and worths padded to 32 bytes so that none straddles a cache line
/// (3.50-3.61 s).
pub const BEST_TURN_LIMIT: u32 = 60;

/// The longest assault on a battery the solver takes under best play. A
/// battery's states do not level off: its smoke markers, the bombardments it
/// has left and the attacker's losses under them keep adding turn starts
/// (bold against bold: 198 k by the 6th turn and 68 k more each turn, where a
/// battalion's level off at 94 k), and best play, the attacker halting
/// anywhere under fire and the battery holding or firing at every chance,
/// multiplies them: 2 turns take 15.5 s and 1.5 GB (`solve_time huzzah
/// assault defender.arm=artillery turns=2`), 3 turns pass the state budget.
/// Longer assaults on a battery are sampled, a side asked for `best` playing
/// its fallback.
pub const BATTERY_BEST_TURN_LIMIT: u32 = 2;

/// The longest assault on a battery the solver takes under the heuristics
/// alone: 6 turns, 1.3 M states, 8 s (bold against bold); 12 turns 20 s and
/// 1.7 GB.
pub const BATTERY_TURN_LIMIT: u32 = 6;

/// The longest assault on cavalry the solver takes: its recalls and its
/// blown and out-of-control states multiply the graph, and infantry facing
/// it may re-form a square into line or column and stop short of a full
/// advance, each re-forming in its zone followed by a threat test: 4 turns
/// pass the state budget (1.2 GB). Measured 2026-11-28 with `cargo run
/// --release -p volley-kernel --example solve_time -- huzzah assault
/// defender.arm=cavalry turns=T` (loaded machine, CPU time): 2 turns 0.23 s
/// and 91 MB, 3 turns 3.6 s and 1.03 GB (with `attacker.retire` 5.6 s and
/// 1.4 GB). Before the square re-formed and the partial advances, 3 turns
/// took 0.69 s and 316 MB and 4 turns 3.5 s and 1.3 GB (2026-11-27).
pub const CAVALRY_TURN_LIMIT: u32 = 3;

/// The longest assault the solver takes where the attacker's brigade takes
/// command checks (`attacker.brigade` 1 or more): 5 turns 3.6 s and 1.3 GB,
/// 10 past the budget (measured as above with `attacker.brigade=1`).
pub const BRIGADE_TURN_LIMIT: u32 = 5;

/// The longest assault the solver takes where the defender gives its own
/// orders (`defender.orders`): each retire and advance of the defender
/// moves where its table edge lies, and the turn starts no longer level
/// off. Measured 2026-11-27 with `solve_time huzzah assault
/// defender.orders=true turns=T` (release, this two-core machine, loaded):
/// 2 turns 0.28 s and 76 MB, 3 turns 2.0 s and 315 MB, 5 turns 8.0 s; the
/// default 30 turns pass the state budget (1.2 GB). Without the advance to
/// engage, 5 turns take 3.0 s and 620 MB and 30 turns 8.7 s and 1.3 GB.
///
/// Why (measured 2026-11-28 with the limit lifted, the defaults otherwise):
/// the fight drifts along the table. The bands behind the attacker, between
/// the units and behind the defender always add up to the same 40 (the
/// `edge` keys' 16 each and the 8 between), and a defender that retires a
/// band out of the column's zone each turn, the column following, stands
/// anywhere from 0 to 31 bands from its edge by the 5th turn (14 places
/// without the key). The turn starts do not level off: 2,507, 36 k, 165 k,
/// 330 k, 455 k, 550 k and 631 k starting turns 2 to 8 (without the key
/// they level off at 141 k), and the 8th turn passes the 4 M state budget
/// (1.25 GB); 5 turns take 2.6 M states and 21.6 s on the loaded machine.
/// What would bring the default 30 turns within budget is a state that
/// forgets where on the table the fight stands where that cannot matter:
/// for example the bands behind a unit counted only up to the farthest a
/// rout or retire could carry it in the turns left (not exact as the
/// state is kept: it does not know the turns left), or a `defender.orders`
/// reading in which a defender that retires gives up its position (the
/// purpose's `DefenderLeft`), which ends the drift; neither is done.
///
/// The defender's successive orders and free order (2026-11-28) add states
/// within a turn: 3 turns of a column on a line take 1.27 s of CPU and 316
/// MB (unchanged: a line retired out of the column's zone has no further
/// order), of cavalry on a line 1.84 s and 570 MB (0.36 s and 136 MB
/// before), of a column on a column 3.5 s and 736 MB (2.4 s and 558 MB):
/// within the 1 GB budget, so the limit stays 3 turns. An assault on
/// cavalry with the key passes the state budget at 3 turns (before as
/// now: `solve_time huzzah assault defender.arm=cavalry
/// defender.orders=true turns=3` found no exact law after 6.3 s and 1.2
/// GB), so against cavalry the limit is one turn less, 2 turns (1.35 s of
/// CPU and 354 MB), and 3 are sampled rather than promised and refused
/// (test `cavalry_giving_its_own_orders_is_promised_exact_only_where_it_solves`).
pub const DEFENDER_ORDERS_TURN_LIMIT: u32 = 3;

/// The longest assault the solver takes where the attacker is offered every
/// order (`attacker.every_order`): advances and retires of every band and
/// deploys to every formation multiply the states within a turn (each
/// order's place, formation and count of orders). Measured 2026-11-28 with
/// `solve_time huzzah assault attacker.every_order=true turns=T` (release,
/// this two-core machine, loaded): 1 turn 0.04 s of CPU, 2 turns 2.1 s of
/// CPU and 654 MB; 3 turns pass the state budget (1.7 GB).
pub const EVERY_ORDER_TURN_LIMIT: u32 = 2;
