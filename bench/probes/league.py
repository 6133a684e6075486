"""Made-up amateur football league KG (bare TSV triples) plus test questions. All gold answers computed from the tables."""
import json, os, sys

OUT = sys.argv[1] if len(sys.argv) > 1 else "."  # the folder to write into
os.makedirs(OUT, exist_ok=True)

# ---------------- tables ----------------
TOWNS = {  # name: (region, population)
    "Ashwick": ("Northvale", 18400),
    "Kelton": ("Northvale", 32100),
    "Millbrook": ("Northvale", 9700),
    "Dunmore": ("Southmere", 41500),
    "Larkhaven": ("Southmere", 12300),
    "Wrenfield": ("Southmere", 15800),
}
STADIUMS = {  # name: (town, capacity, opened)
    "Copperfield Lane": ("Ashwick", 4200, 1923),
    "The Quarry Ground": ("Kelton", 6800, 1910),
    "Millbrook Park": ("Millbrook", 3100, 1950),
    "Harbour Road": ("Dunmore", 7500, 1902),
    "Elmstead Field": ("Larkhaven", 2600, 1961),
    "The Old Tannery": ("Wrenfield", 3900, 1988),
}
COACHES = {  # name: (born_in town, date of birth)
    "Gordon Pell": ("Kelton", "1968-03-14"),
    "Marion Vesey": ("Kelton", "1975-11-02"),
    "Trevor Anslow": ("Dunmore", "1962-07-21"),
    "Declan Fairley": ("Larkhaven", "1980-01-09"),
    "Priya Holloway": ("Ashwick", "1983-05-30"),
    "Sam Okafor": ("Wrenfield", "1971-09-17"),
}
SPONSORS = {  # name: (headquartered_in town, industry)
    "Brightwater Dairy": ("Millbrook", "dairy"),
    "Haldane Motors": ("Kelton", "car dealership"),
    "Saltmarsh Brewery": ("Dunmore", "brewing"),
    "Kestrel Insurance": ("Larkhaven", "insurance"),
}
CLUBS = {  # name: (home ground, coach, sponsor, founded, kit colour)
    "Ashwick Rovers": ("Copperfield Lane", "Gordon Pell", "Brightwater Dairy", 1921, "green"),
    "Kelton Athletic": ("The Quarry Ground", "Marion Vesey", "Haldane Motors", 1908, "red"),
    "Millbrook Town": ("Millbrook Park", "Trevor Anslow", "Brightwater Dairy", 1946, "blue"),
    "Dunmore United": ("Harbour Road", "Declan Fairley", "Saltmarsh Brewery", 1899, "black"),
    "Larkhaven Wanderers": ("Elmstead Field", "Priya Holloway", "Kestrel Insurance", 1932, "yellow"),
    "Wrenfield Albion": ("The Old Tannery", "Sam Okafor", "Haldane Motors", 1955, "white"),
}
PLAYERS = {  # name: (club, position, date of birth, shirt number, captain, injured, goals this season)
    "Tom Gable": ("Ashwick Rovers", "goalkeeper", "1994-02-11", 1, "no", "no", 0),
    "Liam Hartnell": ("Ashwick Rovers", "defender", "1991-08-23", 5, "yes", "no", 2),
    "Owen Pryce": ("Ashwick Rovers", "midfielder", "1997-12-03", 8, "no", "yes", 4),
    "Jamie Crowther": ("Ashwick Rovers", "forward", "1999-04-17", 9, "no", "no", 14),
    "Callum Reddy": ("Ashwick Rovers", "forward", "2001-06-29", 11, "no", "no", 7),
    "Ewan Strachan": ("Kelton Athletic", "goalkeeper", "1989-10-05", 1, "no", "no", 0),
    "Niall Brody": ("Kelton Athletic", "defender", "1993-03-22", 4, "no", "no", 1),
    "Marcus Ilesanmi": ("Kelton Athletic", "midfielder", "1995-07-08", 6, "yes", "no", 5),
    "Dario Vance": ("Kelton Athletic", "forward", "1996-01-30", 10, "no", "no", 17),
    "Felix Ormond": ("Kelton Athletic", "midfielder", "2000-09-14", 7, "no", "no", 3),
    "Harvey Quill": ("Millbrook Town", "goalkeeper", "1998-05-19", 1, "no", "no", 0),
    "Rory Talbot": ("Millbrook Town", "defender", "1990-11-27", 3, "yes", "no", 1),
    "Kieran Moss": ("Millbrook Town", "midfielder", "1996-02-02", 8, "no", "no", 6),
    "Ben Ashdown": ("Millbrook Town", "forward", "2002-08-08", 9, "no", "no", 9),
    "Josh Penrose": ("Millbrook Town", "defender", "1999-12-12", 2, "no", "no", 0),
    "Aiden Kershaw": ("Dunmore United", "goalkeeper", "1992-04-04", 1, "no", "yes", 0),
    "Connor Wilde": ("Dunmore United", "defender", "1994-06-16", 5, "no", "no", 3),
    "Sean Mallory": ("Dunmore United", "midfielder", "1988-09-09", 10, "yes", "no", 8),
    "Luca Ferrant": ("Dunmore United", "forward", "1997-03-03", 9, "no", "no", 15),
    "Ryan Thistle": ("Dunmore United", "forward", "2003-01-21", 19, "no", "no", 4),
    "Ollie Fenn": ("Larkhaven Wanderers", "goalkeeper", "1997-07-07", 1, "no", "no", 0),
    "Gareth Mayhew": ("Larkhaven Wanderers", "defender", "1987-02-28", 6, "yes", "yes", 2),
    "Zac Hollis": ("Larkhaven Wanderers", "midfielder", "2000-10-10", 14, "no", "no", 5),
    "Ethan Corrie": ("Larkhaven Wanderers", "forward", "1998-11-11", 9, "no", "no", 11),
    "Nathan Spurling": ("Larkhaven Wanderers", "midfielder", "1995-05-05", 8, "no", "no", 2),
    "Dylan Markey": ("Wrenfield Albion", "goalkeeper", "1993-08-30", 1, "no", "no", 0),
    "Isaac Thorne": ("Wrenfield Albion", "defender", "1996-04-26", 4, "no", "no", 1),
    "Elliot Brannock": ("Wrenfield Albion", "midfielder", "1991-12-01", 7, "yes", "no", 6),
    "Mason Kettle": ("Wrenfield Albion", "forward", "2001-03-15", 9, "no", "yes", 10),
    "Ravi Chandler": ("Wrenfield Albion", "forward", "1999-07-19", 17, "no", "no", 8),
}
MATCHES = [  # code, home club, away club, date, home goals, away goals, attendance, player of the match
    ("M01", "Ashwick Rovers", "Kelton Athletic", "2024-03-02", 2, 1, 3150, "Jamie Crowther"),
    ("M02", "Dunmore United", "Larkhaven Wanderers", "2024-03-02", 3, 0, 5820, "Luca Ferrant"),
    ("M03", "Millbrook Town", "Wrenfield Albion", "2024-03-09", 1, 1, 2240, "Kieran Moss"),
    ("M04", "Kelton Athletic", "Dunmore United", "2024-03-16", 2, 2, 6110, "Dario Vance"),
    ("M05", "Larkhaven Wanderers", "Ashwick Rovers", "2024-03-23", 0, 2, 1980, "Callum Reddy"),
    ("M06", "Wrenfield Albion", "Kelton Athletic", "2024-03-30", 1, 3, 3420, "Marcus Ilesanmi"),
    ("M07", "Ashwick Rovers", "Millbrook Town", "2024-04-06", 4, 0, 3890, "Jamie Crowther"),
    ("M08", "Dunmore United", "Wrenfield Albion", "2024-04-13", 1, 2, 7020, "Mason Kettle"),
    ("M09", "Millbrook Town", "Larkhaven Wanderers", "2024-04-20", 2, 3, 1760, "Ethan Corrie"),
    ("M10", "Kelton Athletic", "Ashwick Rovers", "2024-04-27", 0, 1, 6540, "Tom Gable"),
    ("M11", "Larkhaven Wanderers", "Wrenfield Albion", "2024-05-04", 2, 2, 2310, "Zac Hollis"),
    ("M12", "Wrenfield Albion", "Dunmore United", "2024-05-11", 0, 0, 3650, "Dylan Markey"),
]
SEASONS = {  # name: (champion, runner-up, top scorer)
    "Season 2018": ("Dunmore United", "Kelton Athletic", "Sean Mallory"),
    "Season 2019": ("Kelton Athletic", "Dunmore United", "Dario Vance"),
    "Season 2020": ("Kelton Athletic", "Ashwick Rovers", "Dario Vance"),
    "Season 2021": ("Ashwick Rovers", "Larkhaven Wanderers", "Jamie Crowther"),
    "Season 2022": ("Dunmore United", "Wrenfield Albion", "Luca Ferrant"),
    "Season 2023": ("Kelton Athletic", "Ashwick Rovers", "Dario Vance"),
}

# ---------------- triples ----------------
T = []
for t, (region, pop) in TOWNS.items():
    T += [(t, "in_region", region), (t, "population", str(pop))]
for s, (town, cap, opened) in STADIUMS.items():
    T += [(s, "located_in", town), (s, "capacity", str(cap)), (s, "opened", str(opened))]
for c, (born, dob) in COACHES.items():
    T += [(c, "born_in", born), (c, "date_of_birth", dob)]
for sp, (hq, industry) in SPONSORS.items():
    T += [(sp, "headquartered_in", hq), (sp, "industry", industry)]
for c, (ground, coach, sponsor, founded, colour) in CLUBS.items():
    T += [(c, "home_ground", ground), (c, "coached_by", coach), (c, "sponsored_by", sponsor),
          (c, "founded", str(founded)), (c, "kit_colour", colour)]
for p, (club, pos, dob, shirt, capt, inj, goals) in PLAYERS.items():
    T += [(p, "plays_for", club), (p, "position", pos), (p, "date_of_birth", dob),
          (p, "shirt_number", str(shirt)), (p, "is_captain", capt), (p, "injured", inj),
          (p, "season_goals", str(goals))]
for code, home, away, date, hg, ag, att, potm in MATCHES:
    T += [(code, "home_club", home), (code, "away_club", away), (code, "match_date", date),
          (code, "home_goals", str(hg)), (code, "away_goals", str(ag)), (code, "attendance", str(att)),
          (code, "player_of_the_match", potm)]
for season, (champ, runner, scorer) in SEASONS.items():
    T += [(season, "champion", champ), (season, "runner_up", runner), (season, "top_scorer", scorer)]

assert len(set(T)) == len(T)
assert 250 <= len(T) <= 500, len(T)
for code, home, away, date, hg, ag, att, potm in MATCHES:  # crowds fit the home ground; man of the match played
    assert att <= STADIUMS[CLUBS[home][0]][1], code
    assert PLAYERS[potm][0] in (home, away), code

# ---------------- query helpers over the triples ----------------
def obj(s, r):
    return {o for (a, b, o) in T if a == s and b == r}
def subj(r, o):
    return {a for (a, b, x) in T if b == r and x == o}
def objs(ss, r):
    return set().union(*[obj(s, r) for s in ss]) if ss else set()
def subjs(r, oo):
    return set().union(*[subj(r, o) for o in oo]) if oo else set()
def with_rel(r):
    return {a for (a, b, o) in T if b == r}
def val(s, r):
    (v,) = obj(s, r)
    return v
def num(s, r):
    return int(val(s, r))
def argbest(ss, key, pick=max):
    best = pick(key(s) for s in ss)
    win = {s for s in ss if key(s) == best}
    assert len(win) == 1, win  # superlatives must have one clear winner
    return win

clubs = with_rel("home_ground")
players = with_rel("plays_for")
stadiums = with_rel("capacity")
matches = with_rel("home_club")
def clubs_in_region(region):  # club -> home ground -> town -> region
    return subjs("home_ground", subjs("located_in", subj("in_region", region)))
def games_of(club):
    return subj("home_club", club) | subj("away_club", club)
def opponents(club):
    return (objs(subj("home_club", club), "away_club") | objs(subj("away_club", club), "home_club")) - {club}

LABELS = {x for t in T for x in (t[0], t[2])}
Q = []
def q(text, ans, count=False):
    ans = sorted(str(a) for a in ans)
    if count:
        assert len(ans) == 1 and ans[0].isdigit(), (text, ans)
    else:  # every non-count answer must be a string of the KG
        assert all(a in LABELS for a in ans), (text, ans)
    assert 1 <= len(ans) <= 8, (text, ans)
    Q.append({"id": "league-%d" % len(Q), "question": text, "answers": ans})

# one-hop, both directions (one with a typo in the club's name)
q("who is the manager of Kelton Athletic?", obj("Kelton Athletic", "coached_by"))
q("where do Dunmore Untied play their home games?", obj("Dunmore United", "home_ground"))
q("which team does Owen Pryce play for?", obj("Owen Pryce", "plays_for"))
q("which clubs have Haldane Motors as their shirt sponsor?", subj("sponsored_by", "Haldane Motors"))
q("who's in the Larkhaven Wanderers squad?", subj("plays_for", "Larkhaven Wanderers"))
q("which club is Sam Okafor the boss of?", subj("coached_by", "Sam Okafor"))
q("who won the league in 2021?", obj("Season 2021", "champion"))
q("how many fans can Harbour Road hold?", obj("Harbour Road", "capacity"))

# two-hop (one with a first name only)
q("who is Dario's manager?", objs(obj("Dario Vance", "plays_for"), "coached_by"))
q("where was the Dunmore United gaffer born?", objs(obj("Dunmore United", "coached_by"), "born_in"))
q("which ground does Jamie Crowther play his home matches at?", objs(obj("Jamie Crowther", "plays_for"), "home_ground"))
q("which managers work at clubs backed by Haldane Motors?", objs(subj("sponsored_by", "Haldane Motors"), "coached_by"))
q("who was top scorer in the season Ashwick Rovers won the title?", objs(subj("champion", "Ashwick Rovers"), "top_scorer"))
q("which team does the man of the match from M05 play for?", objs(obj("M05", "player_of_the_match"), "plays_for"))
q("in which town is the company that sponsors Ashwick Rovers based?", objs(obj("Ashwick Rovers", "sponsored_by"), "headquartered_in"))

# three-hop
q("which clubs play their home games in Southmere?", clubs_in_region("Southmere"))
q("in which region was the Millbrook Town manager born?",
  objs(objs(obj("Millbrook Town", "coached_by"), "born_in"), "in_region"))
q("which town is the stadium of the 2019 champions in?",
  objs(objs(obj("Season 2019", "champion"), "home_ground"), "located_in"))

# counts
q("how many league titles have Kelton Athletic won?", [len(subj("champion", "Kelton Athletic"))], count=True)
q("how many strikers are there in the league?", [len(subj("position", "forward"))], count=True)
q("how many matches did Wrenfield Albion host?", [len(subj("home_club", "Wrenfield Albion"))], count=True)
q("how many clubs are from Northvale?", [len(clubs_in_region("Northvale"))], count=True)
q("how many games have Ashwick Rovers played?", [len(games_of("Ashwick Rovers"))], count=True)

# superlatives (some over a filtered set)
q("who has scored the most goals this season?", argbest(players, lambda p: num(p, "season_goals")))
q("which game drew the biggest crowd?", argbest(matches, lambda m: num(m, "attendance")))
q("who is the oldest player at Dunmore United?",
  argbest(subj("plays_for", "Dunmore United"), lambda p: val(p, "date_of_birth"), min))
q("which Northvale club has been around the longest?",
  argbest(clubs_in_region("Northvale"), lambda c: num(c, "founded"), min))
q("who is the youngest forward?", argbest(subj("position", "forward"), lambda p: val(p, "date_of_birth")))

# numeric / date comparisons
q("which grounds can take more than 4000 spectators?", {s for s in stadiums if num(s, "capacity") > 4000})
q("which matches were played before April 2024?", {m for m in matches if val(m, "match_date") < "2024-04-01"})
q("who has scored more than 10 goals this season?", {p for p in players if num(p, "season_goals") > 10})
q("which clubs were formed after 1930?", {c for c in clubs if num(c, "founded") > 1930})

# yes/no filters and negation
q("who captains Kelton Athletic?", subj("plays_for", "Kelton Athletic") & subj("is_captain", "yes"))
q("which Wrenfield Albion players are fit to play?", subj("plays_for", "Wrenfield Albion") - subj("injured", "yes"))
q("which clubs have nobody on the injury list?", clubs - objs(subj("injured", "yes"), "plays_for"))

# conjunctions
q("which players are captains and currently injured?", subj("is_captain", "yes") & subj("injured", "yes"))
q("which clubs are sponsored by Haldane Motors and play in Northvale?",
  subj("sponsored_by", "Haldane Motors") & clubs_in_region("Northvale"))
q("which teams have played against both Ashwick Rovers and Dunmore United?",
  opponents("Ashwick Rovers") & opponents("Dunmore United"))

# no entity named
q("which stadium holds the most people?", argbest(stadiums, lambda s: num(s, "capacity")))

# surname only
q("what position does Mallory play?", obj("Sean Mallory", "position"))

assert len(Q) == 40, len(Q)
with open(os.path.join(OUT, "league.tsv"), "w", encoding="utf-8") as f:
    for s, r, o in T:
        f.write("%s\t%s\t%s\n" % (s, r, o))
with open(os.path.join(OUT, "league_q.jsonl"), "w", encoding="utf-8") as f:
    for item in Q:
        f.write(json.dumps(item) + "\n")
print("triples:", len(T), "questions:", len(Q))
print("relations:", sorted({r for _, r, _ in T}))
