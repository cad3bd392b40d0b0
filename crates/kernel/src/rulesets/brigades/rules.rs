//! [`Rules`]: every number the Brigades and Batteries rules print, with
//! its section, and the tables read off them (dice from figures, the
//! morale test and rout rows).

use super::*;

crate::rule_book! {
    /// Every number of Brigades and Batteries that the scenarios use, at its
    /// printed value, and every interpretation.
    pub struct Rules {
        /// 1.12 Natural hits: in shooting or combat this face always misses (0: none).
        pub natural_miss_face: u32 = 1, range 0..=10;
        /// 1.12 Natural hits: in shooting or combat this face always hits (11: none).
        pub natural_hit_face: u32 = 10, range 1..=11;

        /// 3.1 Infantry fire: one die per this many firing figures.
        pub fire_figures_per_die: u32 = 4, range 1..=12;
        /// 3.1 Infantry fire: a final remainder of this many figures rounds up.
        pub fire_remainder_rounds_up: u32 = 3, range 1..=12;
        /// 7.9 Two-rank line fire: one die per this many figures.
        pub two_rank_figures_per_die: u32 = 3, range 1..=12;
        /// 7.9 Two-rank line fire: a final remainder of this many figures rounds up.
        pub two_rank_remainder_rounds_up: u32 = 2, range 1..=12;
        /// 1.4 Game scales: actual guns per gun model (3.1: one die per actual gun).
        pub guns_per_model: u32 = 2, range 1..=4;
        /// 3.1 Crew figures a gun model needs to shoot with 2 dice.
        pub crew_for_two_dice: u32 = 3, range 1..=8;
        /// 3.1 Crew figures a gun model needs to shoot with 1 die.
        pub crew_for_one_die: u32 = 2, range 1..=8;

        /// 3.2 Range of musket fire, close (inches).
        pub musket_close_range: u32 = 4, range 1..=60;
        /// 3.2 Range of musket fire, far (inches).
        pub musket_far_range: u32 = 8, range 1..=60;
        /// 3.2 Range of rifle fire, close (inches).
        pub rifle_close_range: u32 = 8, range 1..=60;
        /// 3.2 Range of rifle fire, far (inches).
        pub rifle_far_range: u32 = 16, range 1..=60;
        /// 3.2 Range of light gun canister (inches).
        pub light_canister_range: u32 = 10, range 1..=60;
        /// 3.2 Range of field gun canister (inches).
        pub field_canister_range: u32 = 12, range 1..=60;
        /// 3.2 Range of heavy gun canister (inches).
        pub heavy_canister_range: u32 = 16, range 1..=60;
        /// 3.2 Range of light gun ballshot (inches).
        pub light_ballshot_range: u32 = 24, range 1..=80;
        /// 3.2 Range of field gun ballshot (inches).
        pub field_ballshot_range: u32 = 32, range 1..=80;
        /// 3.2 Range of heavy gun ballshot (inches).
        pub heavy_ballshot_range: u32 = 40, range 1..=80;

        /// 3.2 Score to hit: musket close, normal target (0 = NIL).
        pub musket_close_normal: u32 = 7, range 0..=20;
        /// 3.2 Score to hit: musket close, skirmishers (0 = NIL).
        pub musket_close_skirmish: u32 = 9, range 0..=20;
        /// 3.2 Score to hit: musket close, soft cover (0 = NIL).
        pub musket_close_soft: u32 = 9, range 0..=20;
        /// 3.2 Score to hit: musket close, hard cover (0 = NIL).
        pub musket_close_hard: u32 = 10, range 0..=20;
        /// 3.2 Score to hit: musket far, normal target (0 = NIL).
        pub musket_far_normal: u32 = 9, range 0..=20;
        /// 3.2 Score to hit: musket far, skirmishers (0 = NIL).
        pub musket_far_skirmish: u32 = 10, range 0..=20;
        /// 3.2 Score to hit: musket far, soft cover (0 = NIL).
        pub musket_far_soft: u32 = 10, range 0..=20;
        /// 3.2 Score to hit: musket far, hard cover (printed NIL = 0).
        pub musket_far_hard: u32 = 0, range 0..=20;
        /// 3.2 Score to hit: rifle close, normal target (0 = NIL).
        pub rifle_close_normal: u32 = 8, range 0..=20;
        /// 3.2 Score to hit: rifle close, skirmishers (0 = NIL).
        pub rifle_close_skirmish: u32 = 8, range 0..=20;
        /// 3.2 Score to hit: rifle close, soft cover (0 = NIL).
        pub rifle_close_soft: u32 = 8, range 0..=20;
        /// 3.2 Score to hit: rifle close, hard cover (0 = NIL).
        pub rifle_close_hard: u32 = 9, range 0..=20;
        /// 3.2 Score to hit: rifle far, normal target (0 = NIL).
        pub rifle_far_normal: u32 = 9, range 0..=20;
        /// 3.2 Score to hit: rifle far, skirmishers (0 = NIL).
        pub rifle_far_skirmish: u32 = 10, range 0..=20;
        /// 3.2 Score to hit: rifle far, soft cover (0 = NIL).
        pub rifle_far_soft: u32 = 10, range 0..=20;
        /// 3.2 Score to hit: rifle far, hard cover (0 = NIL).
        pub rifle_far_hard: u32 = 10, range 0..=20;
        /// 3.2 Score to hit: canister of any gun, normal target (merged cell; 0 = NIL).
        pub canister_normal: u32 = 6, range 0..=20;
        /// 3.2 Score to hit: canister of any gun, skirmishers (merged cell; 0 = NIL).
        pub canister_skirmish: u32 = 9, range 0..=20;
        /// 3.2 Score to hit: canister of any gun, soft cover (merged cell; 0 = NIL).
        pub canister_soft: u32 = 9, range 0..=20;
        /// 3.2 Score to hit: canister of any gun, hard cover (merged cell; 0 = NIL).
        pub canister_hard: u32 = 10, range 0..=20;
        /// 3.2 Score to hit: ballshot of any gun, normal target (merged cell; 0 = NIL).
        pub ballshot_normal: u32 = 8, range 0..=20;
        /// 3.2 Score to hit: ballshot of any gun, skirmishers (merged cell, printed NIL = 0).
        pub ballshot_skirmish: u32 = 0, range 0..=20;
        /// 3.2 Score to hit: ballshot of any gun, soft cover (merged cell; 0 = NIL).
        pub ballshot_soft: u32 = 8, range 0..=20;
        /// 3.2 Score to hit: light gun ballshot, hard cover (merged cell; 0 = NIL).
        pub light_ballshot_hard: u32 = 10, range 0..=20;
        /// 3.2 Score to hit: field gun ballshot, hard cover (merged cell; 0 = NIL).
        pub field_ballshot_hard: u32 = 10, range 0..=20;
        /// 3.2 Score to hit: heavy gun ballshot, hard cover (0 = NIL).
        pub heavy_ballshot_hard: u32 = 9, range 0..=20;

        /// 3.3 Shooting modifier: ball vs. dense target (3.5: ballshot only).
        pub fire_ball_vs_dense: i32 = 2, range -10..=10;
        /// 3.3 Shooting modifier: the firer is shaken.
        pub fire_shaken: i32 = -2, range -10..=10;
        /// 3.3 Shooting modifier: the firer is disordered or skirmishing.
        pub fire_disordered_or_skirmishing: i32 = -1, range -10..=10;
        /// 3.3 Shooting modifier: the firer is grade A or B.
        pub fire_grade_a_b: i32 = 1, range -10..=10;
        /// 3.3 Shooting modifier: the firer is grade E or F.
        pub fire_grade_e_f: i32 = -1, range -10..=10;
        /// 3.3 Shooting modifier: the firer is evading.
        pub fire_evading: i32 = -2, range -10..=10;
        /// 3.3 Shooting modifier: the firer moved.
        pub fire_moving: i32 = -2, range -10..=10;
        /// 3.3 Shooting modifier: the firer is in square.
        pub fire_in_square: i32 = -1, range -10..=10;

        /// 3.4 Counterbattery: a hit effect roll up to this is a miss.
        pub counterbattery_miss_max: u32 = 4, range 0..=12;
        /// 3.4 Counterbattery: up to this, a miss from ballshot, else a gunner.
        pub counterbattery_ballshot_miss_max: u32 = 7, range 0..=12;
        /// 3.4 Counterbattery: from this roll, 1 actual gun plus a gunner from ballshot, else a gunner.
        pub counterbattery_gun_min: u32 = 10, range 1..=13;
        /// 3.4 Counterbattery modifier: shooting ballshot at limbered guns.
        pub counterbattery_limbered: i32 = 2, range -10..=10;

        /// 4.1 Combat: one die per this many infantry or gunner figures.
        pub combat_foot_figures_per_die: u32 = 4, range 1..=12;
        /// 4.1 Combat: a final remainder of this many infantry rounds up.
        pub combat_foot_remainder_rounds_up: u32 = 3, range 1..=12;
        /// 4.1 Combat: one die per this many cavalry figures.
        pub combat_cavalry_figures_per_die: u32 = 3, range 1..=12;
        /// 4.1 Combat: a final remainder of this many cavalry rounds up.
        pub combat_cavalry_remainder_rounds_up: u32 = 2, range 1..=12;
        /// 4.1 Combat: cavalry against unsquared infantry in the open rolls one die per figure.
        pub combat_cavalry_vs_open_infantry_die_per_figure: bool = true;
        /// 4.1 Combat: the base score to hit.
        pub combat_base_to_hit: u32 = 6, range 1..=20;
        /// 4.2 Combat modifier: flank/rear attack.
        pub combat_flank_attack: i32 = 3, range -10..=10;
        /// 4.2 Combat modifier: striking to flank/rear.
        pub combat_striking_to_flank: i32 = -3, range -10..=10;
        /// 4.2 Combat modifier: fresh cavalry vs. non-fresh.
        pub combat_fresh_cavalry: i32 = 2, range -10..=10;
        /// 4.2 Combat modifier: the unit is shaken.
        pub combat_shaken: i32 = -3, range -10..=10;
        /// 4.2 Combat modifier: steady cavalry vs. unsquared infantry.
        pub combat_steady_cavalry_vs_unsquared: i32 = 3, range -10..=10;
        /// 4.2 Combat modifier: unsquared infantry vs. steady cavalry.
        pub combat_unsquared_vs_steady_cavalry: i32 = -3, range -10..=10;
        /// 4.2 Combat modifier: square vs. cavalry.
        pub combat_square_vs_cavalry: i32 = 3, range -10..=10;
        /// 4.2 Combat modifier: cavalry vs. square.
        pub combat_cavalry_vs_square: i32 = -3, range -10..=10;
        /// 4.2 Combat modifier: each morale grade higher than the enemy (and minus this per grade lower).
        pub combat_per_grade: i32 = 1, range -10..=10;
        /// 4.2 Combat modifier: heavier cavalry, per level (and minus this per level lighter).
        pub combat_per_heaviness: i32 = 1, range -10..=10;
        /// 4.2 Combat modifier: steady lancers, first round of the combat.
        pub combat_lancers_first_round: i32 = 2, range -10..=10;
        /// 4.2 Combat modifier: vs. steep slope/obstacle.
        pub combat_vs_obstacle: i32 = -1, range -10..=10;
        /// 4.2 Combat modifier: disordered vs. steady.
        pub combat_disordered_vs_steady: i32 = -2, range -10..=10;
        /// 4.2 and 7.9 Combat modifier: 2-rank infantry, not in cover.
        pub combat_two_rank: i32 = -1, range -10..=10;
        /// 7.9 Combat modifier: cavalry fighting a 2-rank unit.
        pub combat_cavalry_vs_two_rank: i32 = 1, range -10..=10;
        /// 4.2 and 4.4 Combat modifier: cavalry caught stationary (first round).
        pub combat_cavalry_stationary: i32 = -2, range -10..=10;
        /// 4.4 Cavalry is caught stationary if it advanced less than this many inches straight forward in its last move phase.
        pub cavalry_stationary_advance: u32 = 2, range 0..=20;
        /// 4.2 Combat modifier: vs. soft cover.
        pub combat_vs_soft_cover: i32 = -2, range -10..=10;
        /// 4.2 Combat modifier: vs. hard cover.
        pub combat_vs_hard_cover: i32 = -3, range -10..=10;
        /// 1.8 Formations: a column is up to this many figures wide (its front rank in combat, 4.1).
        pub column_width: u32 = 8, range 1..=36;
        /// 4.10 Squares in combat: "all four faces of the square" (1.8: it faces out in all directions); one face fires (3.1) and fights infantry (4.10).
        pub square_faces: u32 = 4, range 1..=8;
        /// 6.4.4 Town blocks: "up to half the figures may shoot out any side of a block" (its figures divided by this).
        pub block_fire_divisor: u32 = 2, range 1..=8;
        /// 6.4.4 Town blocks: figures equal to 1.5 X the garrison size may attack any side of the block (percent of the block's capacity).
        pub block_attack_side_percent: u32 = 150, range 1..=1000;
        /// Interpretation: when one of two chargers loses a round (5.4 (4); per_unit: its own hits taken against struck; side: both chargers' together).
        pub multi_loser: assault::MultiLoser = assault::MultiLoser::PerUnit;
        /// Interpretation: where the odd die goes when a unit splits its fire evenly between two chargers of unequal figures (3.10; more_figures: toward the larger, as 4.5 rounds combat dice; chosen: the firer's `target` decision).
        pub split_odd_die: assault::SplitOddDie = assault::SplitOddDie::MoreFigures;
        /// Interpretation: which shooting hits of a phase count for a target's test when two units fire at it (summed: every hit it suffered, 5.4 (1), 5.6; per_firer: volley by volley).
        pub converging_hits: converging::ConvergingHits = converging::ConvergingHits::Summed;
        /// Interpretation: how cavalry charged by infantry fights (as_printed: a die per figure against unsquared infantry in the open, 4.1, and +3 if steady, 4.2, whoever charged; no_shock: a die per three and no +3/-3).
        pub charged_cavalry: assault::ChargedCavalry = assault::ChargedCavalry::AsPrinted;
        /// Interpretation: the figures on the face of a square that meets a charger, when they do not divide by the faces (down: a quarter rounded down, the charger choosing its face; up).
        pub square_face: assault::SquareFace = assault::SquareFace::Down;

        /// 5.5 Score to pass morale (1D10 plus modifiers): grade A.
        pub morale_pass_a: i32 = 0, range -10..=20;
        /// 5.5 Score to pass morale: grade B.
        pub morale_pass_b: i32 = 1, range -10..=20;
        /// 5.5 Score to pass morale: grade C.
        pub morale_pass_c: i32 = 2, range -10..=20;
        /// 5.5 Score to pass morale: grade D.
        pub morale_pass_d: i32 = 3, range -10..=20;
        /// 5.5 Score to pass morale: grade E.
        pub morale_pass_e: i32 = 4, range -10..=20;
        /// 5.5 Score to pass morale: grade F.
        pub morale_pass_f: i32 = 5, range -10..=20;
        /// 5.4 (1) A unit tests morale after at least this many shooting hits in one phase.
        pub morale_test_shooting_hits: u32 = 2, range 1..=20;
        /// 5.6 Morale modifier: in steady square or hard cover, vs. shooting hits.
        pub morale_square_or_hard_cover: i32 = 1, range -10..=10;
        /// 5.6 Morale modifier: the unit is shaken.
        pub morale_shaken: i32 = -2, range -10..=10;
        /// 5.6 Morale modifier: each 2 hits suffered this phase (rounded down).
        pub morale_per_two_hits: i32 = -1, range -10..=10;
        /// 5.6 Morale modifier: each 25% total losses suffered.
        pub morale_per_quarter_losses: i32 = -2, range -10..=10;
        /// 5.6 Morale modifier: foot charging home vs. hard cover or steady foot.
        pub morale_foot_charging_home: i32 = -2, range -10..=10;
        /// 5.6 Morale modifier: foot meeting a successful charge by steady infantry.
        pub morale_meeting_infantry_charge: i32 = -3, range -10..=10;
        /// 5.6 Morale modifier: cavalry charging home against a steady square.
        pub morale_cavalry_vs_square: i32 = -4, range -10..=10;
        /// 5.6 Morale modifier: foot meeting a successful charge by steady cavalry.
        pub morale_meeting_cavalry_charge: i32 = -4, range -10..=10;
        /// 5.6 Morale modifier: charged on flank or rear this turn.
        pub morale_flanked: i32 = -2, range -10..=10;
        /// 5.6 Morale modifier: testing vs. losing a combat.
        pub morale_losing_combat: i32 = -3, range -10..=10;
        /// 5.6 Morale modifier: no general in command radius.
        pub morale_no_general: i32 = -1, range -10..=10;
        /// 5.3 Shattered: losses of this many quarters of the unit shatter it.
        pub shatter_quarters: u32 = 3, range 1..=4;

        /// 5.7.1 Rout table: a score of this or less shatters the unit.
        pub rout_shatter_max: i32 = 0, range -20..=20;
        /// 5.7.1 Rout table: the top score of the 18" row (1-2).
        pub rout_18_max: i32 = 2, range -20..=20;
        /// 5.7.1 Rout table: the top score of the 12" row (3-4).
        pub rout_12_max: i32 = 4, range -20..=20;
        /// 5.7.1 Rout table: the top score of the 8" row (5-7).
        pub rout_8_max: i32 = 7, range -20..=20;
        /// 5.7.1 Rout table: the top score of the 6" row (8-9); above it, 4".
        pub rout_6_max: i32 = 9, range -20..=20;
        /// 5.7.1 Rout distances (inches) of the rows 1-2.
        pub rout_distance_18: u32 = 18, range 0..=48;
        /// 5.7.1 Rout distance (inches) of the row 3-4.
        pub rout_distance_12: u32 = 12, range 0..=48;
        /// 5.7.1 Rout distance (inches) of the row 5-7.
        pub rout_distance_8: u32 = 8, range 0..=48;
        /// 5.7.1 Rout distance (inches) of the row 8-9.
        pub rout_distance_6: u32 = 6, range 0..=48;
        /// 5.7.1 Rout distance (inches) of the row 10 or more.
        pub rout_distance_4: u32 = 4, range 0..=48;
        /// 5.7.1 Units of this many figures or more use the large column of rout hits.
        pub rout_large_unit_min: u32 = 17, range 1..=100;
        /// 5.7.1 Rout hits, 17 or more figures: 18" row.
        pub rout_hits_large_18: u32 = 6, range 0..=20;
        /// 5.7.1 Rout hits, 17 or more figures: 12" row.
        pub rout_hits_large_12: u32 = 5, range 0..=20;
        /// 5.7.1 Rout hits, 17 or more figures: 8" row.
        pub rout_hits_large_8: u32 = 3, range 0..=20;
        /// 5.7.1 Rout hits, 17 or more figures: 6" row.
        pub rout_hits_large_6: u32 = 2, range 0..=20;
        /// 5.7.1 Rout hits, 17 or more figures: 4" row.
        pub rout_hits_large_4: u32 = 1, range 0..=20;
        /// 5.7.1 Rout hits, 16 or fewer figures: 18" row.
        pub rout_hits_small_18: u32 = 4, range 0..=20;
        /// 5.7.1 Rout hits, 16 or fewer figures: 12" row.
        pub rout_hits_small_12: u32 = 3, range 0..=20;
        /// 5.7.1 Rout hits, 16 or fewer figures: 8" row.
        pub rout_hits_small_8: u32 = 2, range 0..=20;
        /// 5.7.1 Rout hits, 16 or fewer figures: 6" row.
        pub rout_hits_small_6: u32 = 1, range 0..=20;
        /// 5.7.1 Rout hits, 16 or fewer figures: 4" row.
        pub rout_hits_small_4: u32 = 0, range 0..=20;
        /// 5.8 Army baselines: extra rout hits of a surrounded force's unit routing past its centre point.
        pub surrounded_extra_rout_hits: u32 = 2, range 0..=20;
        /// 5.7.2 Rout modifier: no general in command radius.
        pub rout_no_general: i32 = -1, range -10..=10;
        /// 5.7.2 Rout modifier: the unit is at or below half strength.
        pub rout_half_strength: i32 = -2, range -10..=10;
        /// 5.7.2 Rout modifier: grade A.
        pub rout_grade_a: i32 = 3, range -10..=10;
        /// 5.7.2 Rout modifier: grade B.
        pub rout_grade_b: i32 = 2, range -10..=10;
        /// 5.7.2 Rout modifier: grade C.
        pub rout_grade_c: i32 = 1, range -10..=10;
        /// 5.7.2 Rout modifier: grade D.
        pub rout_grade_d: i32 = 0, range -10..=10;
        /// 5.7.2 Rout modifier: grade E.
        pub rout_grade_e: i32 = -1, range -10..=10;
        /// 5.7.2 Rout modifier: grade F.
        pub rout_grade_f: i32 = -3, range -10..=10;

        /// 1.11 Charisma: a D10 up to this gives +0.
        pub charisma_zero_max: u32 = 3, range 0..=10;
        /// 1.11 Charisma: a D10 up to this (above the last) gives +1; above it, +2.
        pub charisma_one_max: u32 = 8, range 0..=10;
        /// 1.11.1 Command radius (inches).
        pub command_radius: u32 = 12, range 0..=48;
        /// 1.11.1 Command radius of a general attached to a unit (inches).
        pub command_radius_attached: u32 = 6, range 0..=48;
        /// 7.5 Danger to generals: an attached general is at risk when his unit suffers this many hits.
        pub general_danger_hits: u32 = 2, range 1..=20;
        /// 7.5 Danger to generals: a D10 of this or less removes him.
        pub general_danger_max: u32 = 1, range 0..=10;

        /// 2.11 Movement: infantry in column (inches).
        pub move_infantry_column: u32 = 8, range 0..=40;
        /// 2.11 Movement: infantry in line (inches).
        pub move_infantry_line: u32 = 4, range 0..=40;
        /// 2.2 Units may not move closer than this to an enemy unless charging (inches; the firefight's closest approach).
        pub no_closer_than: u32 = 2, range 0..=12;
        /// 2.11 Movement: infantry in extended line (inches).
        pub move_infantry_extended_line: u32 = 3, range 0..=40;
        /// 1.8 Formations: a line is up to this many figures wide; wider is an extended line (2.11 3", 2.12 a whole move to change formation).
        pub line_max_width: u32 = 24, range 1..=100;
        /// 2.11 Movement: heavy cavalry or cuirassiers (inches).
        pub move_heavy_cavalry: u32 = 10, range 0..=40;
        /// 2.11 Movement: light cavalry (inches).
        pub move_light_cavalry: u32 = 12, range 0..=40;
        /// 2.11 Movement: heavy cavalry or cuirassiers, steady and launching a charge (inches).
        pub move_heavy_cavalry_charge: u32 = 16, range 0..=40;
        /// 2.11 Movement: light cavalry, steady and launching a charge (inches).
        pub move_light_cavalry_charge: u32 = 20, range 0..=40;

        /// 2.8 Evaders caught: no evading an infantry charge that starts within this many inches.
        pub evade_infantry_within: u32 = 2, range 0..=40;
        /// 2.8 Evaders caught: no evading a cavalry charge that starts within this many inches.
        pub evade_cavalry_within: u32 = 4, range 0..=40;
        /// Interpretation: 2.7's evading fire "at 1/2 effect" (modifier: 3.3's -2; half_dice; both).
        pub evade_fire: EvadeFire = EvadeFire::Modifier;
        /// 6.6 Plowed fields: cavalry charging across 1" or more is disordered on a D10 of this or more (8-10).
        pub plowed_disorder_min: u32 = 8, range 1..=11;
        /// Interpretation: whether a line may form square before cavalry within charge reach moves (rolled: only with the initiative, half the time, 2.1; always: it moves first every turn).
        pub square_initiative: assault::SquareInitiative = assault::SquareInitiative::Rolled;
        /// Interpretation: when cavalry must be steady for its 16"/20" charge move (launch: 2.11 "steady cavalry launching a charge"; contact: terrain or an obstacle charged into takes it away too).
        pub charge_move_steady: assault::ChargeMoveSteady = assault::ChargeMoveSteady::Launch;
        /// 7.4 Pursuit: a cavalry unit enters pursuit on a D10 of this or less.
        pub pursuit_max_score: i32 = 4, range 0..=10;
        /// 7.4 Pursuit: the modifier to that roll for grade E/F (lower rolls pursue).
        pub pursuit_grade_e_f: i32 = -3, range -10..=10;
        /// 7.4 Pursuit: pursuers strike the unit they routed with this many times the hits ("double hits").
        pub pursuit_hit_multiplier: u32 = 2, range 1..=4;
        /// 7.4 Pursuit: rout hits a pursuer loses to disorganization when it pursues again.
        pub pursuit_rout_hits: u32 = 1, range 0..=6;
        /// 7.4 and 7.13 A unit off the table returns at the start of movement on a D10 of this or more (8-10).
        pub return_min_score: u32 = 8, range 1..=11;

        /// Interpretation: what a failed morale test does to a firefight (reengage: the firefight goes on at the same range; ends: the first rout ends it).
        pub firefight_rout: FirefightRout = FirefightRout::Reengage;
        /// Interpretation: 2.12 a firefight's retreat at half speed (printed: an inch back costs two of the move, so 2" of a 4" move, firing after 1"; half_move: up to half a move back, firing).
        pub retire_speed: RetireSpeed = RetireSpeed::Printed;
        /// Interpretation: 2.1 who moves first in a firefight's turn (rolled: initiative each turn, each side half the time, the winner picks side A, moving first, or side B; attacker_first: the attacker is always side A).
        pub firefight_initiative: FirefightInitiative = FirefightInitiative::Rolled;
        /// Interpretation: a shaken unit in a firefight stands still and holds fire to recover (recover, 2.4), or fires at -2 and stays shaken (fire).
        pub shaken_policy: ShakenPolicy = ShakenPolicy::Recover;
        /// Interpretation: a battery's gunners spread over its models for the crew limits of 3.1 (even: as evenly as possible; best: however fires the most dice).
        pub battery_crew: BatteryCrew = BatteryCrew::Even;
        /// Interpretation: a destroyed gun costs a die (subtract, 3.1), or the crews man the guns left (cap: at most a die per gun left).
        pub battery_gun_loss: BatteryGunLoss = BatteryGunLoss::Subtract;
        /// Interpretation: hits on a battery that count for morale and 7.5 (effects: those that took a gunner, 3.4; dice: every die that hit).
        pub battery_hits: BatteryHits = BatteryHits::Effects;
        /// Interpretation: the routs of a surrounded unit that take 5.8's extra rout hits (crossing: the one that passes the centre point; beyond: every rout ending past it).
        pub surrounded_hits: SurroundedHits = SurroundedHits::Crossing;
        /// Interpretation: the range band of the defender's fire at a charge (close: canister, the charge ends in contact; far).
        pub defensive_fire_band: DefensiveFireBand = DefensiveFireBand::Close;

        /// Interpretation: whether a square charged by steady cavalry tests morale (exempt: the cavalry contacting a steady square is disordered, 2.3, so not a steady enemy, 5.4 (3); tests: 5.4 (3) names no exception for squares, -4 applies).
        pub square_charged_test: SquareChargedTest = SquareChargedTest::Exempt;

        /// 7.3 Optional "pinning": a unit changing formation, facing or frontage within 4" of an enemy is shaken at once (`cavalry_charge`'s `forms_square`).
        pub optional_pinning: bool = false;
        /// 7.3 Pinning: a unit changing formation within this many inches of an enemy unit becomes shaken.
        pub pinning_distance: u32 = 4, range 0..=60;
        /// Interpretation: how a unit that changed formation this turn shoots (moving: -2, a formation change costs half a move, 2.12 and 3.1; free).
        pub formation_change_fire: assault::FormationChangeFire = assault::FormationChangeFire::Moving;
        /// 7.1 Optional pass-through fire: a stationary unit may shoot at an enemy eligible for at least half of its movement that turn (`crossing`; no effect on a charged unit, which fires at its charger anyway, 3.8, nor on a firefight, whose units only close in).
        pub optional_pass_through_fire: bool = false;
        /// 7.1 Pass-through fire: the target must have been eligible for at least this percent of its movement ("at least half").
        pub pass_through_percent: u32 = 50, range 1..=100;
        /// Interpretation: a pursuer losing a pursuit round tests at -3 as any loser (tests, 5.4 (4)), or the pursuit just ends (ends).
        pub pursuer_loses: PursuerLoses = PursuerLoses::Tests;
        /// Interpretation: which pursuits cost the pursuer a rout hit (every: the first too, 7.4's "yet another"; again: only renewed ones).
        pub pursuit_cost: PursuitCost = PursuitCost::Every;
        /// Interpretation: against whom fresh cavalry gets +2 (cavalry: only cavalry that is not fresh, freshness being a rating of cavalry; any: infantry and gunners too).
        pub fresh_against: FreshAgainst = FreshAgainst::Cavalry;
        /// Interpretation: what 7.1's "half of its movement" is half of, for a unit that moved less than its full move (moved: the distance it moved that turn; full_move: its 2.11 move).
        pub pass_through_measure: PassThroughMeasure = PassThroughMeasure::Moved;
        /// Interpretation: which moving targets a stationary unit may shoot without 7.1 (end_of_move: 7.1's "normally"; passed_through: 3.8's "any target that passed through its range and arc of fire this turn").
        pub stationary_fire_targets: StationaryFireTargets = StationaryFireTargets::EndOfMove;
        /// 7.4 Optional pursuit: cavalry that routs its enemy in combat may pursue it, fighting on with double hits (the cavalry bounce is recorded only).
        pub optional_pursuit: bool = false;
        /// 7.1 Optional cavalry bounce rule: cavalry that fails to inflict more losses than it suffers recoils 4"; a cavalry winner rolls to resist pursuit or follows up, else the combat ends with no winner.
        pub optional_cavalry_bounce: bool = false;
        /// 7.1 Cavalry bounce: the recoil (inches); recorded: a winner that follows up closes it at once, one that holds ends the combat.
        pub bounce_recoil: u32 = 4, range 0..=40;
        /// Interpretation: whether the winner of a bounce (7.1) rolls to resist pursuit and follows up on a failure, the combat going on (roll, even without the pursuit rule: the bounce rule calls for the roll), or always holds, ending the combat (holds).
        pub bounce_follow_up: assault::BounceFollowUp = assault::BounceFollowUp::Roll;
        /// 7.5 Optional danger to generals: an attached general may be lost when his unit suffers 2 hits.
        pub optional_danger_to_generals: bool = false;
        /// 7.8 Optional carry-through: dice that miss the first target roll again at a rearward target within the carry-through range (the `rear` keys of `fire`).
        pub optional_carry_through: bool = false;
        /// 7.8 Carry-through range of small arms and canister (inches behind the first target).
        pub carry_through_small_arms_and_canister: u32 = 4, range 0..=60;
        /// 7.8 Carry-through range of light gun ballshot (inches behind the first target).
        pub carry_through_light_ballshot: u32 = 6, range 0..=60;
        /// 7.8 Carry-through range of field gun ballshot (inches behind the first target).
        pub carry_through_field_ballshot: u32 = 8, range 0..=60;
        /// 7.8 Carry-through range of heavy gun ballshot (inches behind the first target).
        pub carry_through_heavy_ballshot: u32 = 10, range 0..=60;
        /// Interpretation: whether a natural 1 that missed the first target carries through (carry: it is a die that missed, 1.12; spent: it goes nowhere).
        pub carry_through_natural_ones: fire::CarryNaturalOnes = fire::CarryNaturalOnes::Carry;
        /// Interpretation: whether fire at a first target it cannot hit (NIL) carries through (carry: every die missed it; stopped: the target stops the fire).
        pub carry_through_nil: fire::CarryThroughNil = fire::CarryThroughNil::Carry;
        /// 7.9 Optional two-rank line: allows the `two_rank` keys (1 die per 3 figures in fire, -1 in combat).
        pub optional_two_rank_line: bool = false;
        /// 7.11 Optional national modifiers: enables the `nation` keys.
        pub optional_national_modifiers: bool = false;
        /// 7.13 Optional first rout off-table: in a firefight a unit's first rout off the table may return (7.4: a D10 of 8-10 at the start of movement, steady).
        pub optional_first_rout_off_table: bool = false;
    }
}

/// Dice from figures: one per `per_die`, plus one for a final remainder of at
/// least `rounds_up` figures (3.1, 4.1).
pub fn dice_from_figures(figures: u32, per_die: u32, rounds_up: u32) -> u32 {
    let per_die = per_die.max(1);
    figures / per_die + u32::from(figures % per_die >= rounds_up)
}

/// 4.5 Multi-unit combats: a unit's dice divided as evenly as possible among
/// its targets, the odd dice going to the targets it has the most figures in
/// combat with (ties to the earlier target).
pub fn split_dice(dice: u32, figures_in_contact: &[u32]) -> Vec<u32> {
    let targets = figures_in_contact.len() as u32;
    if targets == 0 {
        return Vec::new();
    }
    let mut split = vec![dice / targets; figures_in_contact.len()];
    let mut order: Vec<usize> = (0..figures_in_contact.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(figures_in_contact[i]));
    for &i in order.iter().take((dice % targets) as usize) {
        split[i] += 1;
    }
    split
}

/// Artillery dice (3.1): one per actual gun, models of `guns_per_model` guns,
/// each model limited by its crew (3 crew for 2 dice, 2 for 1, 1 for none).
/// `crew` is the crew figures of each model, spread evenly.
pub fn artillery_dice(rules: &Rules, actual_guns: u32, crew_per_model: u32) -> u32 {
    let per_model = rules.guns_per_model.max(1);
    let crew_dice = if crew_per_model >= rules.crew_for_two_dice {
        2
    } else if crew_per_model >= rules.crew_for_one_die {
        1
    } else {
        0
    };
    let full_models = actual_guns / per_model;
    let part = actual_guns % per_model;
    // 3.1: reduce fire by 1 die per actual gun destroyed: a model with fewer
    // guns rolls no more dice than its guns.
    full_models * per_model.min(crew_dice) + part.min(crew_dice)
}

impl Rules {
    /// 5.5 The score to pass morale of a grade.
    pub fn morale_pass(&self, grade: Grade) -> i32 {
        [
            self.morale_pass_a,
            self.morale_pass_b,
            self.morale_pass_c,
            self.morale_pass_d,
            self.morale_pass_e,
            self.morale_pass_f,
        ][grade.index()]
    }

    /// 5.7.2 The rout modifier of a grade.
    pub fn rout_grade(&self, grade: Grade) -> i32 {
        [
            self.rout_grade_a,
            self.rout_grade_b,
            self.rout_grade_c,
            self.rout_grade_d,
            self.rout_grade_e,
            self.rout_grade_f,
        ][grade.index()]
    }

    /// 3.3 The grade's shooting modifier.
    pub fn fire_grade(&self, grade: Grade) -> i32 {
        match grade {
            Grade::A | Grade::B => self.fire_grade_a_b,
            Grade::C | Grade::D => 0,
            Grade::E | Grade::F => self.fire_grade_e_f,
        }
    }

    /// 3.2 The score to hit (0 = NIL) of a weapon at a range band on a target,
    /// or `None` when the weapon has no such band.
    pub fn score_to_hit(&self, weapon: Weapon, band: RangeBand, target: Target) -> Option<u32> {
        let row: [u32; 4] = match (weapon, band) {
            (Weapon::Musket, RangeBand::Close) => {
                [self.musket_close_normal, self.musket_close_skirmish, self.musket_close_soft, self.musket_close_hard]
            }
            (Weapon::Musket, RangeBand::Far) => {
                [self.musket_far_normal, self.musket_far_skirmish, self.musket_far_soft, self.musket_far_hard]
            }
            (Weapon::Rifle, RangeBand::Close) => {
                [self.rifle_close_normal, self.rifle_close_skirmish, self.rifle_close_soft, self.rifle_close_hard]
            }
            (Weapon::Rifle, RangeBand::Far) => {
                [self.rifle_far_normal, self.rifle_far_skirmish, self.rifle_far_soft, self.rifle_far_hard]
            }
            (w, RangeBand::Canister) if w.is_gun() => {
                [self.canister_normal, self.canister_skirmish, self.canister_soft, self.canister_hard]
            }
            (w, RangeBand::Ballshot) if w.is_gun() => {
                let hard = match w {
                    Weapon::LightGun => self.light_ballshot_hard,
                    Weapon::FieldGun => self.field_ballshot_hard,
                    _ => self.heavy_ballshot_hard,
                };
                [self.ballshot_normal, self.ballshot_skirmish, self.ballshot_soft, hard]
            }
            _ => return None,
        };
        Some(row[target as usize])
    }

    /// 3.2 The range (inches) of a weapon's band, or `None` when it has none.
    pub fn band_range(&self, weapon: Weapon, band: RangeBand) -> Option<u32> {
        Some(match (weapon, band) {
            (Weapon::Musket, RangeBand::Close) => self.musket_close_range,
            (Weapon::Musket, RangeBand::Far) => self.musket_far_range,
            (Weapon::Rifle, RangeBand::Close) => self.rifle_close_range,
            (Weapon::Rifle, RangeBand::Far) => self.rifle_far_range,
            (Weapon::LightGun, RangeBand::Canister) => self.light_canister_range,
            (Weapon::FieldGun, RangeBand::Canister) => self.field_canister_range,
            (Weapon::HeavyGun, RangeBand::Canister) => self.heavy_canister_range,
            (Weapon::LightGun, RangeBand::Ballshot) => self.light_ballshot_range,
            (Weapon::FieldGun, RangeBand::Ballshot) => self.field_ballshot_range,
            (Weapon::HeavyGun, RangeBand::Ballshot) => self.heavy_ballshot_range,
            _ => return None,
        })
    }

    /// Which faces of a D10 hit (index face - 1) when `score` (0 = NIL) is
    /// needed with a net `modifier`, natural results applied (1.12).
    pub fn hit_faces(&self, score: u32, modifier: i32) -> [bool; 10] {
        let mut faces = [false; 10];
        if score == 0 {
            // 3.2: NIL means no die can hit, natural 10 included.
            return faces;
        }
        for (index, hit) in faces.iter_mut().enumerate() {
            let face = index as u32 + 1;
            *hit = if face == self.natural_miss_face {
                // 1.12: a natural 1 is always a miss.
                false
            } else if face == self.natural_hit_face {
                // 1.12: a natural 10 is always a hit.
                true
            } else {
                face as i32 + modifier >= score as i32
            };
        }
        faces
    }

    /// The chance one D10 hits, from [`Rules::hit_faces`].
    pub fn hit_chance(&self, score: u32, modifier: i32) -> f64 {
        self.hit_faces(score, modifier).iter().filter(|&&h| h).count() as f64 / 10.0
    }

    /// 1.11 The charisma of a D10 roll.
    pub fn charisma_of_roll(&self, roll: u32) -> i32 {
        if roll <= self.charisma_zero_max {
            0
        } else if roll <= self.charisma_one_max {
            1
        } else {
            2
        }
    }

    /// 1.11 The distribution of charisma: (value, probability).
    pub fn charisma_distribution(&self, charisma: Charisma) -> Vec<(i32, f64)> {
        match charisma {
            Charisma::Zero => vec![(0, 1.0)],
            Charisma::One => vec![(1, 1.0)],
            Charisma::Two => vec![(2, 1.0)],
            Charisma::Rolled => {
                let pmf = Pmf::from_weights((1..=10).map(|r| (i64::from(self.charisma_of_roll(r)), 0.1)));
                pmf.iter().filter(|&(_, p)| p > 0.0).map(|(v, p)| (v as i32, p)).collect()
            }
        }
    }

    /// The charisma a unit's general brings to its tests: the distribution of
    /// [`Rules::charisma_distribution`] if attached (1.11), none otherwise.
    pub fn general_charisma_law(&self, place: GeneralPlace, charisma: Charisma) -> Vec<(i32, f64)> {
        if place == GeneralPlace::Attached { self.charisma_distribution(charisma) } else { vec![(0, 1.0)] }
    }

    /// The same, rolled: a D10 on the charisma table (1.11) for a `rolled`
    /// attached general, no die otherwise.
    pub fn roll_general_charisma(&self, place: GeneralPlace, charisma: Charisma, dice: &mut Dice) -> i32 {
        if place != GeneralPlace::Attached {
            return 0;
        }
        match charisma {
            Charisma::Zero => 0,
            Charisma::One => 1,
            Charisma::Two => 2,
            Charisma::Rolled => self.charisma_of_roll(dice.d10()),
        }
    }

    /// 5.3 Whether losses of `lost` from `start` figures shatter the unit.
    pub fn is_shattered(&self, start: u32, lost: u32) -> bool {
        start > 0 && lost * 4 >= start * self.shatter_quarters
    }

    /// 5.6 Whole quarters of the starting strength lost.
    pub fn quarters_lost(start: u32, lost: u32) -> i32 {
        (lost * 4).checked_div(start).map_or(0, |q| q as i32)
    }
}

/// A failed test's row of the rout table (5.7.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoutRow {
    /// Score 0 or less: shattered.
    Shattered,
    /// Row 1-2: 18".
    Rout18,
    /// Row 3-4: 12".
    Rout12,
    /// Row 5-7: 8".
    Rout8,
    /// Row 8-9: 6".
    Rout6,
    /// Row 10 or more: 4".
    Rout4,
}

impl Rules {
    /// 5.7.1 The row of a modified rout score.
    pub fn rout_row(&self, score: i32) -> RoutRow {
        if score <= self.rout_shatter_max {
            RoutRow::Shattered
        } else if score <= self.rout_18_max {
            RoutRow::Rout18
        } else if score <= self.rout_12_max {
            RoutRow::Rout12
        } else if score <= self.rout_8_max {
            RoutRow::Rout8
        } else if score <= self.rout_6_max {
            RoutRow::Rout6
        } else {
            RoutRow::Rout4
        }
    }

    /// 5.7.1 Rout hits of a row for a unit of `figures` at the time of the test.
    pub fn rout_hits(&self, row: RoutRow, figures: u32) -> u32 {
        let large = figures >= self.rout_large_unit_min;
        match (row, large) {
            (RoutRow::Shattered, _) => 0,
            (RoutRow::Rout18, true) => self.rout_hits_large_18,
            (RoutRow::Rout12, true) => self.rout_hits_large_12,
            (RoutRow::Rout8, true) => self.rout_hits_large_8,
            (RoutRow::Rout6, true) => self.rout_hits_large_6,
            (RoutRow::Rout4, true) => self.rout_hits_large_4,
            (RoutRow::Rout18, false) => self.rout_hits_small_18,
            (RoutRow::Rout12, false) => self.rout_hits_small_12,
            (RoutRow::Rout8, false) => self.rout_hits_small_8,
            (RoutRow::Rout6, false) => self.rout_hits_small_6,
            (RoutRow::Rout4, false) => self.rout_hits_small_4,
        }
    }

    /// 5.7.1 Rout distance (inches) of a row (0 when shattered).
    pub fn rout_distance(&self, row: RoutRow) -> u32 {
        match row {
            RoutRow::Shattered => 0,
            RoutRow::Rout18 => self.rout_distance_18,
            RoutRow::Rout12 => self.rout_distance_12,
            RoutRow::Rout8 => self.rout_distance_8,
            RoutRow::Rout6 => self.rout_distance_6,
            RoutRow::Rout4 => self.rout_distance_4,
        }
    }
}

/// The end of one morale test (5.2) and, on failure, the rout roll (5.7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TestResult {
    /// Passed.
    Pass,
    /// Failed and routed on this row.
    Rout(RoutRow),
}

/// The exact distribution of one morale test: a D10 plus `modifier` against
/// `pass`, then on failure a D10 plus `rout_modifier` on the rout table.
/// No natural results (5.2).
pub fn test_distribution(rules: &Rules, pass: i32, modifier: i32, rout_modifier: i32) -> Vec<(TestResult, f64)> {
    let passes = (1..=10).filter(|&d| d + modifier >= pass).count() as f64 / 10.0;
    let mut out = Vec::with_capacity(6);
    if passes > 0.0 {
        out.push((TestResult::Pass, passes));
    }
    if passes < 1.0 {
        let fail = 1.0 - passes;
        for d in 1..=10 {
            let row = rules.rout_row(d + rout_modifier);
            match out.iter_mut().find(|(r, _)| *r == TestResult::Rout(row)) {
                Some(entry) => entry.1 += fail / 10.0,
                None => out.push((TestResult::Rout(row), fail / 10.0)),
            }
        }
    }
    out
}

/// One morale test from the dice, the same law as [`test_distribution`].
#[inline]
pub fn roll_test(rules: &Rules, dice: &mut Dice, pass: i32, modifier: i32, rout_modifier: i32) -> TestResult {
    if dice.d10() as i32 + modifier >= pass {
        TestResult::Pass
    } else {
        TestResult::Rout(rules.rout_row(dice.d10() as i32 + rout_modifier))
    }
}
