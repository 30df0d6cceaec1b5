# ruff: noqa: E501  (bilingual prose: long string lines read better unbroken)
"""The rules pages' prose, in 简体中文 and English (docs/rules/ is the full rule book).

The pattern tables are not here: they come from the engine's catalogue
(games/engine/patterns). What is here is what a player reads around them —
overview, flow of a hand, restrictions, how values become payments, the house
rules — and the worked settlement example of each variant, whose numbers the
rules view computes with the engine's own scorer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Text:
    zh: str
    en: str

    def get(self, lang: str) -> str:
        return self.zh if lang == "zh" else self.en


def t(zh: str, en: str) -> Text:
    return Text(zh, en)


@dataclass(frozen=True)
class VariantText:
    overview: tuple[Text, ...]
    flow: tuple[Text, ...]
    restrictions: tuple[Text, ...]
    scoring: tuple[Text, ...]  # how patterns become a value, and the value payments
    worked_case: dict[str, Any] = field(default_factory=dict)  # the score CLI's input
    worked_intro: Text = t("", "")


# --- the flow every variant shares (the index page) ----------------------------------------

COMMON_FLOW: tuple[Text, ...] = (
    t(
        "入座：一张桌子四个座位（二人麻将两个），第一个坐下的人是桌主，设定底分；其他人接受底分或离座。空位可以由机器人补上。",
        "Seats: a table has four seats (two for Two-player). The first person to sit owns the table and "
        "sets the base stake (底分); everyone else accepts it or leaves the seat. Bots may fill empty seats.",
    ),
    t(
        "开局：每局开始时庄家掷两颗骰子，所有人都能看到。第一局的庄家随机产生。",
        "Start: the dealer rolls two dice at the start of every hand, for all to see. "
        "The first dealer is chosen at random.",
    ),
    t(
        "补花：花牌不能留在手里也不能打出，一到手就亮出，并从牌墙尾部补一张；补到花再补。",
        "Flowers: a flower is never kept or discarded. As soon as one is in a hand it is laid open and "
        "a replacement is drawn from the back of the wall, again while the replacement is a flower.",
    ),
    t(
        "行牌：轮到你时先摸牌，然后打出一张（或和牌、开杠）。别人打出的牌可以按优先级吃、碰、杠、和："
        "和 > 杠 = 碰 > 吃；同级时离打牌者下家近的优先。一张牌可以多家同时和（一炮多响）。",
        "Play: on your turn you draw, then discard (or win, or make a kong). A discard may be claimed: "
        "win > kong = pong > chi; at the same level the player nearer after the discarder gets it. "
        "Several players may win on one discard (一炮多响).",
    ),
    t(
        "杠：杠后从牌墙尾部补一张牌。",
        "Kongs: after any kong the player draws a replacement from the back of the wall.",
    ),
    t(
        "流局：该摸牌时牌墙已空，本局无人和牌（荒牌）。",
        "Drawn hand: when a player must draw and the wall is empty, the hand ends with no winner (荒牌).",
    ),
    t(
        "计时：每次出牌有出牌时间（默认 15 秒），吃碰杠和有抉择时间（默认 8 秒）。超时由服务器代打："
        "能和就和，否则打出刚摸的牌；掉线的玩家也这样托管，直到回来。",
        "Timers: a turn timer (15 s by default) and a claim timer (8 s). On timeout the server plays for you: "
        "it wins if it can, otherwise it discards the drawn tile. A disconnected player is played this way "
        "(托管) until they return.",
    ),
    t(
        "结算：每局结束时所有人都能看到每个牌型、分数和每笔支付。积分只是虚拟分，任何人的余额都不会被扣到 0 以下："
        "输家最多付出手上所有的分；一人要付给几位赢家时，按放炮者的下家、对家、上家的顺序先付。",
        "Settlement: everyone sees every pattern, its value and every payment. Points are virtual; no balance "
        "goes below 0: a loser pays at most what they have, and when one loser owes several winners they are "
        "paid in order next > opposite > previous after the discarder.",
    ),
    t(
        "继续：余额低于 50 × 底分的玩家不能进行下一局（“您的积分不足，不能进行下一局”）。"
        "其余玩家选择继续或离开，全部继续时开始下一局。",
        "Next hand: a player whose balance is below 50 × base stake is removed (\u201cYour points are "
        "insufficient for the next hand\u201d). The others choose Continue or Leave; when all continue, "
        "the next hand starts.",
    ),
    t(
        "逃跑：有其他玩家同桌时一局中途离座，或掉线超过宽限时间（120 秒），要付逃跑罚分 50 × 底分"
        "（二人麻将 13 × 底分），并禁止入座一段时间（10 分钟，24 小时内每多逃跑一次加倍）。罚分在这一局"
        "结束时平分给打完这一局的其他玩家（除不尽的零头不计），每人所得不超过这一局最多能输的分。"
        "机器人替他打完这一局，这一局的输赢仍算他的。两局之间离开、继续倒计时结束被请离座位、"
        "或同桌只有机器人时离开，都不扣分。",
        "Escape (逃跑): leaving a seat mid-hand while another person plays the hand, or staying "
        "disconnected past the grace period (120 s), costs 50 × base stake (13 × base in Two-player) "
        "and a ban from sitting down (10 minutes, doubling with each further escape in 24 hours). It "
        "is paid when the hand ends, shared equally by the other people who played it (the remainder "
        "is dropped), no share more than the hand could have cost. A bot finishes the hand for the "
        "leaver, whose balance still takes that hand's result. Leaving between hands, letting the "
        "Continue countdown run out, or leaving a table where only bots play with you costs nothing.",
    ),
)

# --- house rules: what each option of Ruleset.default_options means ------------------------

OPTION_TEXT: dict[str, Text] = {
    "escape_penalty": t("逃跑罚分：底分的倍数", "Escape penalty, in base stakes"),
    "rounds": t(
        "一场打几圈风（4：东南西北；1：只打东风圈）",
        "Wind rounds in a match (4: East to North; 1: East only)",
    ),
    "cap": t("封顶分数（番数上限）", "Cap on the value (fan)"),
    "self_draw_multiplier": t(
        "自摸（及抢杠）时对手付 分 × 此倍数 × 底分；1 表示自摸点和一样",
        "A self-drawn win (and robbing a kong) pays value × this × base; 1 pays every win alike",
    ),
    "exchange": t(
        "开局换牌：发牌后每人可以换一次任意张牌",
        "开局换牌: after the deal each player may exchange tiles once",
    ),
    "cuopai": t(
        "搓牌：摸牌后有机会把摸到的牌换成牌墙里任意一张",
        "搓牌: after a draw, a chance to swap the drawn tile for any tile of the wall",
    ),
    "cuopai_p": t("搓牌出现的概率", "Probability of a 搓牌 chance after a draw"),
    "reserve": t(
        "海底捞月：牌墙最后几张留作听牌者的最后一摸",
        "海底捞月 reserve: the last tiles of the wall are kept for a ready player",
    ),
    "reserve_n": t("海底保留的张数", "Tiles in the 海底捞月 reserve"),
    "swap_pung": t(
        "游戏中换牌：摸牌后有机会用手里任意三张牌换牌墙里的一副刻子（系统选定）",
        "游戏中换牌: after a draw, a chance to take a pung from the wall (the system picks it) for any three of your tiles",
    ),
    "swap_pung_p": t("游戏中换牌出现的概率", "Probability of a 游戏中换牌 offer after a draw"),
}

_FROM_3 = {"by": "discard", "from": 3}

VARIANTS: dict[str, VariantText] = {
    "shanghai": VariantText(
        overview=(
            t(
                "上海麻将：四人，144 张牌（万、筒、条、风、箭，加 8 张花）。分数以“花”计（1 喇 = 50 花），"
                "没有起和番数。花牌、风刻、箭刻和杠都算“底花”。",
                "Shanghai: four players, 144 tiles (characters, dots, bamboo, winds, dragons and 8 flowers). "
                "Values are counted in flowers (花; 1 喇 = 50 花); there is no minimum. Flower tiles, honour "
                "pungs and kongs make the base flowers (底花).",
            ),
        ),
        flow=(
            t(
                "庄家：第一局随机；之后由上一局的赢家坐庄；一炮多响时由放炮者坐庄；流局庄家不变。",
                "Dealer: random for the first hand; then the winner of the last hand deals; with several winners "
                "on one discard the discarder deals; after a drawn hand the dealer stays.",
            ),
            t(
                "每人 13 张，庄家先摸。轮到自己时可以打牌、暗杠、加杠（碰过的牌摸到第四张，任何一轮都可以加）、自摸。",
                "Thirteen tiles each; the dealer draws first. On your turn you may discard, make a concealed kong, "
                "add the fourth tile to one of your pongs (on any later turn), or declare a self-drawn win.",
            ),
            t(
                "别人打出的牌：可以和、明杠、碰，下家可以吃（同花色三张相连，9 和 1 不相连）。吃碰后必须打一张。",
                "On a discard: win, exposed kong, pong; the next player may chi (three consecutive numbers of one "
                "suit; 9 and 1 do not connect). After chi or pong you must discard.",
            ),
            t(
                "和牌：四副牌加一对，或八花、乱风向（14 张全是字牌，任意组合）。不算七对、十三幺。"
                "可以和别人打出的牌、抢加杠（暗杠不能抢）、自摸（杠后、补花后摸到的都算自摸）。",
                "Winning: four sets and a pair, or eight flowers, or all honours in any shape (乱风向). No seven "
                "pairs, no thirteen orphans. Win on a discard, by robbing an added kong (a concealed kong cannot "
                "be robbed), or by self-draw (a replacement tile after a kong or flower counts as self-drawn).",
            ),
            t(
                "荒番：桌子记一个荒番数 H。流局后 H 加 1，有人和牌后 H 减 1（不小于 0）。掷骰：(1,1) 或 (4,4) 加 2；"
                "其他含 1 或 4 的点数、或其他对子加 1。开局时 H > 0 就是荒番局，赢家的花数 × 2。",
                "荒番: the table keeps a counter H. A drawn hand adds 1, a won hand takes 1 away (not below 0). "
                "The dice add to it: (1,1) or (4,4) +2; any other roll with a 1 or a 4, or any other double, +1. "
                "A hand that starts with H > 0 is a 荒番 hand: every winner's flowers × 2.",
            ),
        ),
        restrictions=(
            t(
                "碰牌限制：能碰某张牌而没碰，在自己打出一张牌之前不能再碰这张牌。",
                "Pong lock: if you could pong a tile and did not, you may not pong that tile again until you have "
                "discarded.",
            ),
            t(
                "胡牌限制：能和别人打出的牌而没和，在自己摸牌、吃碰杠或打牌之前不能再和别人打出的牌（自摸和抢杠不受限）。",
                "Win lock: if you could win on a discard and did not, you may not win on a discard until you have "
                "drawn, claimed or discarded (self-draw and robbing a kong are never locked).",
            ),
            t(
                "出牌限制：吃了一张牌后，不能马上打出这张牌，也不能打出与手里两张组成同一顺子的另一头"
                "（手里 56 吃 4，不能打 4 和 7）。",
                "Discard after chi: right after a chi you may not discard the claimed tile, nor the tile at the "
                "other end of the same run (holding 5 6, chi 4: not 4, not 7).",
            ),
            t(
                "吃碰限制（一门）：已有别的花色的吃、碰、杠时不能吃；已有别的花色的吃时不能碰或杠数牌。字牌不受限。",
                "One suit: a chi of a suit is not allowed beside any meld of another suit; a pong or kong of a "
                "suited tile is not allowed beside a chi of another suit. Honour melds never block.",
            ),
        ),
        scoring=(
            t(
                "第一类、第二类牌型各只算最高的一项，按固定花数；否则为第三类：底花 × 2^番。",
                "Class 1 and class 2 patterns are worth a fixed number of flowers, the highest one only; "
                "otherwise the hand is class 3: base flowers × 2^fan.",
            ),
            t(
                "底花 = 3 + 每张花牌 1 + 风刻 1、箭刻 2 + 数牌明杠 1、暗杠 2，风牌明杠 2、暗杠 3，箭牌明杠 3、暗杠 4。数牌刻子不算。",
                "Base flowers = 3 + 1 per flower tile + wind pung 1, dragon pung 2 + suited exposed kong 1, "
                "concealed 2; wind exposed kong 2, concealed 3; dragon exposed kong 3, concealed 4. "
                "Suited pungs are worth nothing.",
            ),
            t(
                "一份 = 花数 × 底分。自摸：其他三家各付一份，与赢家有三口关系的付三份。点炮：放炮者付一份，"
                "所有与赢家有三口关系的人（包括放炮者）再各付一份。一炮多响：每位赢家只由放炮者付一份，两人有三口关系再加一份。",
                "One unit = flowers × base stake. Self-draw: each other player pays 1 unit, 3 units if related "
                "(三口) to the winner. Discard: the discarder pays 1 unit, and every player related to the winner "
                "(the discarder too) pays 1 more. Several winners on one discard: the discarder alone pays each "
                "winner 1 unit, +1 if the two are related.",
            ),
            t(
                "三口关系：一局中一人吃、碰或明杠另一人打出的牌达 3 次，两人就有三口关系（只在两人之间）。",
                "三口: two players are related in a hand once one has claimed (chi, pong, exposed kong) the "
                "other's discards three times; the relation is between those two only.",
            ),
        ),
        worked_case={
            "concealed": "111m333p555s777z9m",
            "win_tile": "9m",
            "seat": 1,
            "dealer": 0,
            "flowers": "1f2f",
            "base": 10,
            "claims": [[1, 2, 3]],
        },
        worked_intro=t(
            "南家自摸碰碰胡，亮出两张花，中刻一副；本局南家已经吃碰西家的牌三次（三口关系）。底分 10。",
            "South self-draws all pungs with two flowers and a pung of red dragons; South has claimed West's "
            "discards three times this hand (三口). Base stake 10.",
        ),
    ),
    "yihua": VariantText(
        overview=(
            t(
                "一花起胡：四人，144 张牌（含 8 张花）。点炮和牌至少要一花或一番；自摸、抢杠不限。"
                "分数 = (底数 + 花 × 底数/2) × 2^番，封顶 10 × 底数。底数必须是双数。",
                "One-flower: four players, 144 tiles with 8 flowers. A win on a discard needs at least one flower "
                "or one fan; a self-draw or robbing a kong needs nothing. Score = (base + flowers × base/2) × "
                "2^fan, capped at 10 × base. The base stake must be even.",
            ),
        ),
        flow=(
            t(
                "随机入座，东家先坐庄。庄家和牌或流局，庄家连庄；否则下家坐庄。庄家起手 14 张。",
                "Random seats; East deals first. If the dealer wins or the hand is drawn, the dealer stays; "
                "otherwise the next seat deals. The dealer starts with 14 tiles.",
            ),
            t(
                "可以吃（上家）、碰、明杠、加杠、暗杠（暗杠的牌别人看不到）。可以先碰后杠：能杠的牌可以留着，"
                "在以后自己的任何一轮（摸、吃、碰、杠之后）再杠，不能在别人的回合杠。",
                "Chi (from the previous player), pong, exposed, added and concealed kongs (a concealed kong stays "
                "hidden). A kong may be delayed: keep the set and declare it on any later turn of your own (after "
                "a draw, chi, pong or kong), never during someone else's turn.",
            ),
            t(
                "和牌：四副牌加一对，或七对（门前清）。花：每张花牌 1；风箭牌明刻 1、暗刻 2、明杠 3、暗杠 4；"
                "数牌明杠 1、暗杠 2。和别人打出的牌组成的刻子算明刻。",
                "Winning shapes: four sets and a pair, or seven pairs (fully concealed). Flowers: each flower tile 1; "
                "honour exposed pung 1, concealed pung 2, exposed kong 3, concealed kong 4; suited exposed kong 1, "
                "concealed kong 2. A pung completed by the winning discard counts as exposed.",
            ),
            t(
                "八花：八张花全部到手，本局立即结束，其他每家付封顶分，无论是否和牌。",
                "Eight flowers: holding all eight flowers ends the hand at once; each other player pays the cap, "
                "win or not.",
            ),
        ),
        restrictions=(
            t(
                "不能和自己打过的牌：自己上次摸牌后打出过的牌，不能和别人打出的同一张（独吊除外）。",
                "Own discard: you may not win on a tile you yourself discarded since your last draw "
                "(unless the win scores single wait 独吊).",
            ),
            t(
                "漏胡：能和别人打出的牌而没和，在下次摸、吃、碰、杠之前不能和别人打出的牌；"
                "除非新的和牌番数更多（加番，多几张花不算），而且加番改变了得分（已经封顶就不行）。",
                "Missed win (漏胡): if you pass a win on a discard, you may not win on a discard until you next "
                "draw, chi, pong or kong — unless the new win carries more fan (加番; more flowers alone do not "
                "count) and that changes its score (a win at the cap either way stays locked).",
            ),
            t(
                "过牌：吃牌后不能马上打出吃的那张或同一顺子的另一头；吃之前手里只剩 4 张时不受此限。",
                "After a chi you may not discard the claimed tile or the other end of the run — except when you "
                "held exactly 4 concealed tiles before the chi.",
            ),
            t(
                "诈胡：宣告不能成立的和牌，罚 2 × 底数，平分给其他三家，本局继续。",
                "False win (诈胡): declaring a win that is not allowed costs 2 × base, shared by the other three; "
                "the hand goes on.",
            ),
        ),
        scoring=(
            t(
                "番数相加：混一色对对胡 = 混一色 1 + 对对胡 1 = 2 番（不另加）。",
                "Fan add up: mixed one suit with all pungs = 1 + 1 = 2 fan (nothing extra on top).",
            ),
            t(
                "自摸（含杠开）：其他三家各付得分。点炮：放炮者付得分。抢杠：按自摸计分、不加番，由杠牌者一家付 3 倍；"
                "多人抢杠，杠牌者分别付每人 3 倍。",
                "Self-draw (kong bloom included): each other player pays the score. Discard: the discarder pays "
                "it. Robbing a kong: scored as a self-draw with no extra fan, and the konger alone pays 3 × the "
                "score (to each robber).",
            ),
        ),
        worked_case={
            "concealed": "123m456m789m111z5z",
            "win_tile": "5z",
            "seat": 2,
            "dealer": 0,
            "flowers": "3f",
            "base": 2,
            "by": "discard",
            "from": 0,
        },
        worked_intro=t(
            "西家和东家打出的白板：万子混一色，东风暗刻，一张花。底数 2。",
            "West wins on East's discarded white dragon: characters with honours (mixed one suit), a concealed "
            "pung of East, one flower. Base stake 2.",
        ),
    ),
    "cantonese": VariantText(
        overview=(
            t(
                "广东鸡平和：四人，136 张牌，没有花。以番计分，3 番封顶（爆和），超出封顶的特殊牌型另计；"
                "分数 = 2^番 × 底分。",
                "Cantonese: four players, 136 tiles, no flowers. Values in fan, capped at 3 (爆和) except for the "
                "special hands beyond the cap; value = 2^fan × base stake.",
            ),
        ),
        flow=(
            t(
                "按抽风定座，东家先坐庄。庄家和牌（包括一炮多响中的一位）或流局，庄家连庄；否则下家坐庄。"
                "圈风从东开始，庄家轮完四家进一圈，按东、南、西、北的次序。一场打 4 圈（默认），也可以设为只打东风 1 圈。"
                "只在一场开始时（或换人时）随机定庄，之后庄家交给下家。",
                "Seats by drawn winds; East deals first. If the dealer wins (also as one of several winners) or the "
                "hand is drawn, the dealer stays; otherwise the next seat deals. The prevailing wind starts East and "
                "advances East → South → West → North each time the deal has passed all four seats. A match is "
                "four wind rounds (default), or the East round alone as a house option. The dealer is drawn at "
                "random only when a match starts (or its players change); then the deal passes to the next seat.",
            ),
            t(
                "吃只能吃上家；碰、明杠任何人；加杠、暗杠在自己的回合。只有加杠可以被抢，暗杠不能抢。",
                "Chi from the previous player only; pong and exposed kong from anyone; added and concealed kongs on "
                "your own turn. Only an added kong can be robbed.",
            ),
            t(
                "和牌：四副牌加一对，或十三幺。不算七对。",
                "Winning shapes: four sets and a pair, or thirteen orphans. No seven pairs.",
            ),
        ),
        restrictions=(
            t(
                "漏和：放弃和某张牌后，在自己摸、吃、碰、杠之前，谁打出这张牌都不能和（抢杠不受限）。",
                "Missed win (漏和): after passing a win on tile T you may not win on T discarded by anyone until "
                "you draw, chi, pong or kong (robbing a kong is never locked).",
            ),
        ),
        scoring=(
            t(
                "基本牌型和加番相加，封顶 3 番。符合特殊牌型时只计最高的一项，不加番。杠上开花、海底捞月、抢杠、一炮三响"
                "使不足 3 番的牌算 3 番。",
                "Base patterns and bonuses add up to the cap of 3 fan. A special hand counts alone, the highest one, "
                "without bonuses. Kong bloom, last tile, robbing a kong and triple win raise a hand below 3 fan to 3.",
            ),
            t(
                "自摸：其他三家各付分数；点炮：放炮者付。包（一人付三家，3 倍）：抢杠由杠牌者包；杠上开花（明杠的牌是别人打的）"
                "由打出那张牌的人包；一炮三响由放炮者付每位赢家 3 倍；十二张落地（四副都是吃碰来的，第四副由 A 供牌）"
                "后 B 自摸，由 A 包，A 只包第一个（包先不包后）；大四喜、大三元：B 已碰出三副风（两副箭），"
                "A 打出第四副风（第三副箭）被 B 碰或杠，B 之后自摸由 A 包。",
                "Self-draw: each other player pays the value; discard: the discarder pays it. Liability (包: one "
                "pays for all three, 3 × value): robbing a kong — the konger; kong bloom after an exposed kong "
                "claimed from a discard — the one who discarded that tile; triple win — the discarder pays each "
                "winner 3 ×; twelve tiles (four claimed melds, the fourth fed by A) then B self-draws — A, for the "
                "first such player only; big four winds / big three dragons — B shows three wind (two dragon) "
                "pungs, A discards the fourth wind (third dragon) and B claims it: A pays for B's self-draw.",
            ),
        ),
        worked_case={
            "concealed": "123m456m555z789m5m",
            "win_tile": "5m",
            "seat": 1,
            "dealer": 0,
            "base": 5,
        },
        worked_intro=t(
            "南家自摸：万子混一色，白板刻子。底分 5。",
            "South self-draws characters with a pung of white dragons (mixed one suit). Base stake 5.",
        ),
    ),
    "tianjin": VariantText(
        overview=(
            t(
                "天津麻将：四人，136 张牌。有“混”（万能牌），不能吃，只能自摸。分数从 1 开始，各项翻倍相乘；"
                "开杠就收杠钱。庄家可以坐庄，闲家可以拉庄，使他们之间的输赢翻倍。",
                "Tianjin: four players, 136 tiles. Jokers (混) stand for any tile; no chi; self-drawn wins only. "
                "A win starts at 1 and every pattern multiplies it; kongs are paid when made. The dealer may sit "
                "(坐庄) and non-dealers may pull (拉庄), doubling what passes between them.",
            ),
        ),
        flow=(
            t(
                "第一局庄家随机；庄家和牌或流局连庄，闲家和牌则下家坐庄。有人离开，重新开始一场。",
                "The first dealer is random; the dealer stays after a win of theirs or a draw, otherwise the next "
                "seat deals. A player leaving starts a new match.",
            ),
            t(
                "发牌前：庄家选择坐不坐庄；每个闲家选择不拉、拉一庄、拉两庄（同时亮出）。庄家与闲家 k 之间的倍数 "
                "m = (坐庄 2，否则 1) × 2^(k 的拉庄数)；闲家之间 m = 1。",
                "Before the deal: the dealer chooses 坐庄 or not; each non-dealer chooses not to pull, pull once or "
                "pull twice (shown together). Between the dealer and non-dealer k, m = (2 if 坐庄 else 1) × 2^(k's "
                "pulls); between two non-dealers m = 1.",
            ),
            t(
                "开混：发牌后庄家的对家掷骰，从牌墙尾数墩，翻开的牌（不再使用）和它的下一种牌是混：数牌 n → n+1（9 → 1），"
                "风 东→南→西→北→东，箭 中→发→白→中。共 7 张混。",
                "Jokers: after the deal the dealer's opposite rolls the dice and a tile is turned up from the tail "
                "(taken out of play). Jokers are its kind and the next: suited n → n+1 (9 → 1), winds E→S→W→N→E, "
                "dragons 中→发→白→中. Seven joker tiles are in play.",
            ),
            t(
                "混只在和牌时当任何牌用，不能用来碰、杠。手里有两张某种混时，别人打出同样的混不能碰。"
                "四张相同的混可以暗杠（金杠）。",
                "A joker stands for any tile only in the winning hand, never in a pong or kong. Holding two tiles "
                "of a joker kind you may not pong a third. Four identical jokers may be konged concealed (金杠).",
            ),
        ),
        restrictions=(
            t("不能吃，不能报听。", "No chi and no ready declaration."),
            t(
                "小相公：打出过混的玩家本局不能和牌（打出的混变暗显示）。",
                "小相公: a player who discards a joker may not win this hand (discarded jokers are shown dimmed).",
            ),
            t(
                "只能自摸（包括杠上开花），不能和别人打出的牌，也不能抢杠。",
                "Self-drawn wins only (a kong replacement included): no win on a discard, no robbing a kong.",
            ),
        ),
        scoring=(
            t(
                "和牌：其他每家付 分 × m × 底分。杠钱（开杠时就付）：明杠、加杠 1，暗杠 2，金杠 4，每家 × m × 底分。",
                "A win: each other player pays value × m × base stake. Kongs are paid when made, by each other "
                "player: exposed or added 1, concealed 2, golden (four jokers) 4, × m × base.",
            ),
            t(
                "铲：一局的前四张打出的牌相同（庄家先打，三家依次跟打），结算时庄家付每个闲家 1 × m × 底分，流局也付。",
                "铲: if the first four discards are the same tile (the dealer's, then each non-dealer's), the dealer "
                "pays each non-dealer 1 × m × base at settlement, even in a drawn hand.",
            ),
        ),
        worked_case={
            "concealed": "123m456m789m222z5s",
            "win_tile": "5s",
            "seat": 2,
            "dealer": 0,
            "jokers": "3p4p",
            "zuozhuang": True,
            "lazhuang": [0, 0, 1, 0],
            "base": 1,
        },
        worked_intro=t(
            "西家自摸一条龙（123 456 789 万），手里没有混（素的）。庄家东坐庄，西家拉一庄。混是 3 筒和 4 筒。底分 1。",
            "West self-draws a dragon (123 456 789 characters) holding no joker (clean). East deals and sits "
            "(坐庄); West pulls once (拉一庄). Jokers are 3p and 4p. Base stake 1.",
        ),
    ),
    "two_player": VariantText(
        overview=(
            t(
                "二人麻将：两人，72 张牌（万子 36 张、风牌 16 张、箭牌 12 张、花 8 张）。按国标麻将番种计分，"
                "每张花 1 番，不设起和番，13 番封顶。",
                "Two-player: two players, 72 tiles (characters 36, winds 16, dragons 12, flowers 8). Scored by the "
                "Chinese Official (国标) fan table, 1 fan per flower, no minimum, capped at 13.",
            ),
        ),
        flow=(
            t(
                "第一局庄家随机；赢家下一局坐庄；流局庄家不变。庄家 14 张，闲家 13 张。可以吃、碰、杠（对手永远是你的上家）。",
                "The first dealer is random; the winner deals next; after a drawn hand the dealer stays. The dealer "
                "starts with 14 tiles, the other with 13. Chi, pong and kongs are allowed (the opponent is always "
                "the previous player).",
            ),
            t(
                "报听：听牌时可以随打牌宣告报听。之后手牌锁定，服务器替你摸打，只在能和时询问；放弃和牌不取消报听。",
                "Ready (报听): when one tile from winning you may declare it with your discard. Your hand is then "
                "locked: the server draws and discards for you and asks only when a win is possible; declining "
                "keeps the declaration.",
            ),
            t(
                "只有加杠可以被抢（抢杠和）。",
                "Only an added kong can be robbed.",
            ),
        ),
        restrictions=(
            t(
                "报听后不能再吃、碰、杠，也不能换牌。",
                "After 报听 you may not chi, pong or kong, and the hand cannot change.",
            ),
            t(
                "国标的计番原则：不重复、不拆移、不得相同、就高不就低、套算一次。",
                "The official counting principles apply: no double counting, no splitting, no identical reuse, the "
                "higher reading wins, and each set is combined once.",
            ),
        ),
        scoring=(
            t(
                "分数 = 番数合计（每 1 番 1 分），13 分封顶。",
                "Value = the fan total (1 point per fan), capped at 13.",
            ),
        ),
        worked_case={
            "concealed": "111m345m678m99m6z6z",
            "win_tile": "6z",
            "seat": 1,
            "dealer": 0,
            "players": 2,
            "base": 2,
        },
        worked_intro=t(
            "南家（闲家）自摸发财：万子混一色，一副发财刻子。底分 2。",
            "South (not the dealer) self-draws a green dragon: characters with honours and a pung of green "
            "dragons. Base stake 2.",
        ),
    ),
}


@dataclass(frozen=True)
class Decision:
    """A choice the original rule page leaves open: its number in docs/rules/<variant>.md, the
    page's words it interprets (empty where the page says nothing), what the site does and why."""

    number: int
    seed: str
    text: Text


LAST_DISCARD = t(
    "最后一张打出的牌（河底）：原文没有说。牌墙摸完后，最后一张打出的牌不能吃、碰、杠——杠了没有牌可补，吃碰之后也只能再打一张，这手牌再也和不了；可以和这张牌，这是通常的河底规矩。",
    "The last discard (河底). The rule page says nothing of it. With the wall empty nobody may chi, pong or kong the last discard: a kong would need a replacement tile that is not there, and after a chi or pong the claimer could only throw again into a hand that can no longer be won. A win on it stands, as the usual 河底 convention has it.",
)
LAST_DISCARD_NO_DISCARD_WIN = t(
    "最后一张打出的牌（河底）：原文没有说。牌墙摸完后，最后一张打出的牌不能碰、杠（杠了没有牌可补）；天津麻将不能点炮和，于是流局。",
    "The last discard (河底). The rule page says nothing of it. With the wall empty nobody may pong or kong the last discard (a kong would need a replacement tile that is not there); Tianjin has no win on a discard, so the hand ends drawn.",
)

# --- decisions: where the original rule page is silent or unclear, what the site chose and why ---
# (the same numbers as the Decisions of docs/rules/<variant>.md; `seed` quotes the page as written)

DECISIONS: dict[str, tuple[Decision, ...]] = {
    "shanghai": (
        Decision(
            11,
            "以他人放炮方式中他人打出牌胡牌的…假如A打了一个牌,B…没选择胡",
            t(
                "胡牌限制只因放过别人打出的牌而生效：原文说的是别人“打了一个牌”。放过抢杠的机会不算，不会被锁。",
                "R2 is set only by a passed discard: the page speaks of a tile another player threw. Letting an added kong stand when one could rob it locks nothing.",
            ),
        ),
        Decision(
            15,
            "吃、碰、胡限制--吃一类牌之前判断是否已有非同类牌(风牌、字牌除外)的吃、碰、杠冻结牌",
            t(
                "一门限制与和牌：这一条的标题写着“吃、碰、胡限制”，正文却只限制吃、碰、杠，没有一句说和牌。本站按正文执行：一门限制只管吃碰杠，和牌从不因为花色混杂而被拒绝。",
                "R4 and winning. The heading names 胡 (win), but the body restricts only chi, pong and kong and says nothing of winning. The site follows the body: the one-suit commitment limits claims only; a win is never refused for mixing suits.",
            ),
        ),
        Decision(
            16,
            "当局有人胡牌,荒番数扣1,到0为止,否则荒番数+1。",
            t(
                "新的一场重新开始：原文让荒番数一局一局带下去，却没说何时清零。同一批玩家连着打（一场）时，荒番数、圈风和庄家都带到下一局；换了人开始新的一场时，荒番数归 0，圈风为东，庄家重新随机产生——新来的人不继承别人攒下的荒番。",
                "A new match starts afresh. The page carries the 荒番 count from hand to hand but never says when it starts over. The count, the prevailing wind and the dealer carry on while the same players play on (a match); when a new match starts (someone left or joined) the count is 0, the wind East and the dealer drawn at random: a newcomer does not inherit a doubling the others ran up.",
            ),
        ),
        Decision(
            17,
            '麻将牌局中逃跑扣分为50花(50倍底分)。"50"数值可调。',
            t(
                "逃跑罚分给谁：原文规定了罚分（50 倍底分，可调：本桌的 escape_penalty），没说给谁、何时算逃跑。本站只在有其他真人同桌的一局进行中离座（或掉线超过宽限时间）时罚分；两局之间、没按“继续”、只与机器人同桌都不罚。罚分在这一局结算时平分给打完这一局的其他真人玩家（零头不计），每人所得不超过这一局最多可能输的分——牌局被打断的是他们；机器人不分。",
                "Who receives the escape penalty. The page sets the penalty (50 × base, adjustable: the table's escape_penalty) but not who receives it, nor what counts as escaping. The site charges it only for leaving a hand in progress (or staying disconnected past the grace period) while another person plays it; never between hands, for a Continue not pressed, or at a table of bots. It is paid into that hand's settlement, shared equally among the other people who played the hand to its end (the remainder dropped), each share no more than the hand could have cost them: theirs is the game that was broken; bots receive nothing.",
            ),
        ),
        Decision(18, "", LAST_DISCARD),
    ),
    "yihua": (
        Decision(
            7,
            "如下家B打出一張玩家A可以胡的牌而玩家A卻放棄不胡",
            t(
                "漏胡只因放过别人打出的牌而生效：原文说的是“打出一張”可以胡的牌。放过抢杠的机会不算，不会被锁。",
                "Y2 is set only by a passed discard: the page speaks of a tile another player threw. Passing a chance to rob a kong locks nothing.",
            ),
        ),
        Decision(
            13,
            "待以任何方式進一張牌(包括吃、碰、摸、杠)聽牌后再進行杠牌,創造一次杠開加番的機會。",
            t(
                "先碰后杠的“聽牌后”：原文允许暂不杠，等“聽牌后再進行杠牌”，争取杠开。本站把“聽牌后”看作等待的理由而不是条件：留着的杠可以在自己以后的任何一轮（摸、吃、碰、杠之后）宣告，不要求已经听牌——真实牌桌上也没人能查别人是否听牌。",
                'The delayed kong "聽牌后". The page lets a player keep a kong back and declare it "聽牌后" (once ready), for a chance at a kong bloom. The site reads "聽牌后" as the reason to wait, not as a condition: the kept kong may be declared on any later turn of one\'s own (after a draw, chi, pong or kong), ready or not; no one at a real table could check that the hand is ready either.',
            ),
        ),
        Decision(
            14,
            "“過牌”是指無意義的吃牌,即同圈內吃什么打什么或吃一張再打同一條線的相鄰的另一張牌。",
            t(
                "過牌的范围：“同圈內”指吃牌后紧接着的那一次出牌——这一圈回到自己之前，吃牌的人只出这一张。以后的出牌不受限。",
                'The scope of 過牌. "同圈內" (within the same go-round) is read as the discard right after the chi: the only discard the player makes before the go-round comes back to them. Later discards are free.',
            ),
        ),
        Decision(
            15,
            "此時不但不能得分,還得扣除一定的分值,暫設定為:底數=10*2。",
            t(
                "詐胡罚分给谁：原文只说扣分，没说给谁。本站从詐胡者扣 2 × 底数，平分给其他三家（零头不计），本局继续——其他人都没有做错，谁也不单独得利。",
                "Who receives the 詐胡 penalty. The page sets a deduction but not who receives it. The site takes 2 × base from the false winner and shares it equally among the other three (the remainder dropped); the hand goes on. Nobody else did anything, so nobody is singled out.",
            ),
        ),
        Decision(
            16,
            "若玩家一人獨得八張花牌時,不管是否胡牌即按封頂得分,并結束此盤。",
            t(
                "八花由谁付：原文说按封顶得分，没说谁付。本站由其他三家各付封顶分，与自摸一样——花是从牌墙摸来的，不是谁放的。",
                "Who pays for eight flowers. The page gives the holder the cap but not who pays. Each of the other three pays the cap, as for a self-draw: the flowers came from the wall, nobody fed them.",
            ),
        ),
        Decision(
            17,
            "",
            t(
                "逃跑：原文没有逃跑的规定。本站与上海麻将（这套规则由它而来）一样：有其他真人同桌的一局进行中离座，罚本桌的逃跑罚分（默认 50 × 底数，可调），在这一局结算时平分给打完这一局的其他真人玩家，每人所得不超过这一局最多可能输的分。",
                "Escape. The page has no escape rule. As in Shanghai, from which this game comes, leaving a hand in progress that another person plays costs the table's escape penalty (50 × base by default, house option escape_penalty), paid into that hand's settlement and shared equally among the other people who played it to its end, each share no more than the hand could have cost them.",
            ),
        ),
        Decision(18, "", LAST_DISCARD),
    ),
    "cantonese": (
        Decision(
            12,
            "如下家B打出一张玩家A可以和的牌而玩家A却放弃不和",
            t(
                "漏和只因放过别人打出的牌而生效：原文说的是“打出一张”可以和的牌。放过抢杠的机会不算，不会被锁。",
                "漏和 is set only by a passed discard: the page speaks of a tile another player threw. Passing a chance to rob a kong locks nothing.",
            ),
        ),
        Decision(
            13,
            "庄家的下家(右手边的玩者),有权力吃或碰那张牌,其它两家则只可碰或杠那张牌。",
            t(
                "下家也可以杠：这句话是为了说明只有下家能吃，而不是说下家不能明杠。手里有三张的人都可以杠别人打出的牌，下家也一样，广东牌桌上都是这样。",
                "The next player may kong too. The sentence says who may chi (the next player only); it is not read as taking the exposed kong away from the next player. Anyone holding three may kong a discard, the next player included, as at every Cantonese table.",
            ),
        ),
        Decision(
            14,
            "同一张牌点三个炮,点炮者包三家。",
            t(
                "一炮三响怎么付：“包三家”与原文其他的“包”一样理解：放炮者替三家付，每位赢家得 3 × 自己的分数（不足 3 番按 3 番）。",
                'Paying a triple win. "包三家" is read as every other 包 on the page: the discarder pays for all three payers, so each of the three winners receives 3 × their own value (a value below 3 fan counted as 3).',
            ),
        ),
        Decision(
            15,
            "⒈第一圈风圈为东。⒉每打完一圈,则按照东、南、西、北的次序转换风圈。",
            t(
                "圈风与第几局：一场打满东、南、西、北四圈（house option rounds: 1 只打东风圈）。只在一场开始时随机定庄，之后庄家交给下家。牌桌和大厅显示“东风圈 第2局”：局数是本局庄家在这一圈第一位庄家之后的位置，所以连庄时仍是同一局，和真实牌桌一样。",
                "Wind rounds and the hand of the round. A match is the four wind rounds, East, South, West, North (house option rounds: 1 plays the East round alone). The dealer is drawn at random only when a match starts; then the deal passes to the next seat (下家). The board and the lobby name the hand \"East round, hand 2\" (东风圈 第2局): the number is the dealer's place after the round's first dealer, so a dealer who stays deals the same hand again, as at a real table.",
            ),
        ),
        Decision(16, "", LAST_DISCARD),
    ),
    "tianjin": (
        Decision(
            12,
            "如果三个闲家跟打庄家打出的牌",
            t(
                "铲与暗杠：原文数的是打出的牌。只有吃碰明杠别人打出的牌才打断这一圈；暗杠没有要任何人的牌，不影响铲（加杠之前必须先碰，那一碰已经打断了）。",
                "铲 and a concealed kong. The page counts the discards. Only a pong or exposed kong of a discard interrupts the go-round; a concealed kong takes nobody's tile and does not (an added kong needs a pong first, which already did).",
            ),
        ),
        Decision(
            13,
            "坐庄:在游戏开始后,玩家拿牌前…拉庄:在游戏开始后,玩家拿牌前",
            t(
                "坐庄、拉庄是盲选：原文说“玩家拿牌前”。本站照常洗牌、承诺牌墙、发牌、翻混（记录照样可以重放和验证），但在最后一个人选完之前，任何玩家和观众的画面、JSON 或 API 都看不到手牌、听牌提示、翻牌和混；选完后手牌和开混一起亮出。机器人也只按看得到的东西选，所以同样是盲选。",
                '坐庄 / 拉庄 are chosen blind. The page puts the choices "玩家拿牌前", before the players take their tiles. The site shuffles, commits to the wall, deals and turns up the indicator as always (so a record replays and verifies unchanged), but until the last choice is made no view, HTML frame or API answer to a player or spectator holds a concealed tile, the waits, the indicator or the jokers; then the hands and the 开混 show at once. A bot chooses from what it sees, so it chooses blind too.',
            ),
        ),
        Decision(14, "", LAST_DISCARD_NO_DISCARD_WIN),
    ),
    "two_player": (
        Decision(
            11,
            "莊家發完14張牌、閑家發完13張牌后,系統允許玩家選擇需要換掉的麻將牌",
            t(
                "开局换牌从 14 张换：庄家先拿第 14 张牌，从 14 张里换，闲家从 13 张里换；换完后庄家直接出牌，不再摸牌。",
                "开局换牌 from 14 tiles. The dealer takes the 14th tile first and exchanges from 14, the other player from 13; play then starts with the dealer's discard, with no further draw.",
            ),
        ),
        Decision(
            14,
            "胡牌時花牌可以多算番",
            t(
                "花牌每张 1 番：原文说花牌可以多算番，没说多少。本站按国标的花牌计，每张 1 番，计入 13 番封顶。",
                "Flowers score 1 fan each. The page says flowers add fan but not how many; the site counts 1 fan per flower, the official table's 花牌 value, within the 13-fan cap.",
            ),
        ),
        Decision(
            15,
            "在游戲過程中,輪到玩家自己摸到牌后選擇出牌時(有一定概率),系統將在所有沒打出和沒配到玩家手上的牌中選擇一個刻子給予玩家換牌。",
            t(
                "游戏中换牌（house option swap_pung，和搓牌一样默认关闭）：原文没有说概率，也没说玩家拿什么换。本站：每次摸牌后（吃碰之后没有；报听后原文“不允許換張”，也没有），手里除这种牌外至少还有三张时，以 swap_pung_p 的概率（默认 0.05，与搓牌相同），系统从牌墙可摸的部分（海底保留的牌除外，不含花）里至少还有三张的牌中选一种，把它的刻子给玩家。玩家可以用手里任意三张（不能是这种牌）换：这三张放回牌墙里那副刻子原来的位置；不想换就直接出牌。概率、选哪种牌、取哪三张都来自本局承诺过的盐，所以记录的验证会重新算出每一次机会。这个机会会透露牌墙里还剩哪些牌，这是默认关闭的原因之一。",
                "游戏中换牌 (house option swap_pung, off by default like 搓牌). The page gives no probability and does not say what the player gives. After each drawn tile (not after a chi or pong, nor after 报听, whose \"不允許換張\" it keeps), while the hand holds three other tiles, with probability swap_pung_p (default 0.05, the same as 搓牌), the system picks one kind with at least three tiles still in the drawable wall (outside the 海底 reserve; never flowers) and offers its pung. The player takes it by giving any three tiles of their hand (not of that kind), which go into the wall where the pung's tiles were, or ignores it by discarding. The chance, the kind and which copies are taken come from the hand's committed salt, so the record's verify re-derives every offer. The offer shows a kind still in the wall, one reason it is off by default.",
            ),
        ),
        Decision(16, "", LAST_DISCARD),
    ),
}
