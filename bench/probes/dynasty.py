"""Made-up House of Aldermere, Dukes of Varn: a genealogy spreadsheet pasted as bare triples (TSV, no header)
+ blind test questions. Kinship beyond father/mother/spouse is reached through father/mother chains; every gold
answer is computed from the emitted triples."""
import json, os, sys

OUT = sys.argv[1] if len(sys.argv) > 1 else "."  # the folder to write into
os.makedirs(OUT, exist_ok=True)

# ----------------------------------------------------------------- data
# place: region
PLACES = {
    "Varnholt Castle": "Northmarch", "Ravenscar Keep": "Northmarch", "Dunmere Abbey": "Northmarch",
    "Kessmoor": "Westvale", "Thornby": "Westvale", "St Aldhelm's Church": "Westvale", "Thornby Church": "Westvale",
    "Brightwater": "Fenland", "Hallowfen": "Fenland",
    "Ashcombe Hall": "Eastreach", "Greyfriars Priory": "Eastreach",
}
# name: (house, father, mother, born, died, born_in, buried_at, title, reigned_from, reigned_to)
_ = None
PEOPLE = {
    # generation 1
    "Edric I": ("Aldermere", _, _, 1831, 1894, "Varnholt Castle", "Dunmere Abbey", "Duke of Varn", 1859, 1894),
    "Matilda Corwen": ("Corwen", _, _, 1835, 1901, "Ravenscar Keep", "Dunmere Abbey", "Duchess of Varn", _, _),
    "Godric Threlkeld": ("Threlkeld", _, _, 1828, 1889, "Kessmoor", "St Aldhelm's Church", "Earl of Kessmoor", _, _),
    "Elswyth Harrow": ("Harrow", _, _, 1833, 1897, "Brightwater", "St Aldhelm's Church", "Countess of Kessmoor", _, _),
    # generation 2
    "Edric II": ("Aldermere", "Edric I", "Matilda Corwen", 1857, 1912, "Varnholt Castle", "Dunmere Abbey",
                 "Duke of Varn", 1894, 1912),
    "Alys Aldermere": ("Aldermere", "Edric I", "Matilda Corwen", 1860, 1931, "Varnholt Castle",
                       "St Aldhelm's Church", "Countess of Kessmoor", _, _),
    "Osric Aldermere": ("Aldermere", "Edric I", "Matilda Corwen", 1863, 1886, "Ravenscar Keep", "Dunmere Abbey",
                        _, _, _),
    "Baldwin Threlkeld": ("Threlkeld", "Godric Threlkeld", "Elswyth Harrow", 1854, 1908, "Kessmoor",
                          "St Aldhelm's Church", "Earl of Kessmoor", _, _),
    "Isolde Threlkeld": ("Threlkeld", "Godric Threlkeld", "Elswyth Harrow", 1859, 1934, "Kessmoor", "Dunmere Abbey",
                         "Duchess of Varn", _, _),
    "Hugh Threlkeld": ("Threlkeld", "Godric Threlkeld", "Elswyth Harrow", 1862, 1920, "Brightwater",
                       "Greyfriars Priory", _, _, _),
    # generation 3
    "Edric III": ("Aldermere", "Edric II", "Isolde Threlkeld", 1881, 1940, "Varnholt Castle", "Dunmere Abbey",
                  "Duke of Varn", 1912, 1940),
    "Rowena Aldermere": ("Aldermere", "Edric II", "Isolde Threlkeld", 1883, 1952, "Varnholt Castle",
                         "Thornby Church", "Baroness of Thornby", _, _),
    "Wystan Aldermere": ("Aldermere", "Edric II", "Isolde Threlkeld", 1886, 1916, "Ravenscar Keep",
                         "Greyfriars Priory", "Lord of Hallowfen", _, _),
    "Matilda Aldermere": ("Aldermere", "Edric II", "Isolde Threlkeld", 1889, 1975, "Varnholt Castle",
                          "Greyfriars Priory", _, _, _),
    "Godric Threlkeld the Younger": ("Threlkeld", "Baldwin Threlkeld", "Alys Aldermere", 1879, 1944, "Kessmoor",
                                     "St Aldhelm's Church", "Earl of Kessmoor", _, _),
    "Agnes Threlkeld": ("Threlkeld", "Baldwin Threlkeld", "Alys Aldermere", 1882, 1911, "Kessmoor",
                        "St Aldhelm's Church", _, _, _),
    "Aldous Brenning": ("Brenning", _, _, 1878, 1939, "Thornby", "Thornby Church", "Baron of Thornby", _, _),
    "Elinor Vance": ("Vance", _, _, 1885, 1963, "Ashcombe Hall", "Dunmere Abbey", "Duchess of Varn", _, _),
    "Cecily Marlowe": ("Marlowe", _, _, 1883, 1950, "Brightwater", "St Aldhelm's Church", "Countess of Kessmoor",
                       _, _),
    # generation 4
    "Edric IV": ("Aldermere", "Edric III", "Elinor Vance", 1908, 1971, "Varnholt Castle", "Dunmere Abbey",
                 "Duke of Varn", 1940, 1971),
    "Margery Aldermere": ("Aldermere", "Edric III", "Elinor Vance", 1910, 1988, "Varnholt Castle",
                          "St Aldhelm's Church", "Countess of Kessmoor", _, _),
    "Tobias Aldermere": ("Aldermere", "Edric III", "Elinor Vance", 1913, 1929, "Ravenscar Keep", "Dunmere Abbey",
                         _, _, _),
    "Leofric Aldermere": ("Aldermere", "Edric III", "Elinor Vance", 1917, 1996, "Hallowfen", "Greyfriars Priory",
                          "Lord of Hallowfen", _, _),
    "Alys Brenning": ("Brenning", "Aldous Brenning", "Rowena Aldermere", 1906, 1981, "Thornby", "Greyfriars Priory",
                      _, _, _),
    "Gilbert Brenning": ("Brenning", "Aldous Brenning", "Rowena Aldermere", 1909, 1968, "Thornby",
                         "Thornby Church", "Baron of Thornby", _, _),
    "Piers Threlkeld": ("Threlkeld", "Godric Threlkeld the Younger", "Cecily Marlowe", 1905, 1967, "Kessmoor",
                        "St Aldhelm's Church", "Earl of Kessmoor", _, _),
    "Joan Threlkeld": ("Threlkeld", "Godric Threlkeld the Younger", "Cecily Marlowe", 1908, 2001, "Brightwater",
                       "St Aldhelm's Church", _, _, _),
    "Beatrix Harrow": ("Harrow", _, _, 1912, 1999, "Brightwater", "Dunmere Abbey", "Duchess of Varn", _, _),
    "Hamon Vance": ("Vance", _, _, 1902, 1958, "Ashcombe Hall", "Greyfriars Priory", _, _, _),
    "Sibyl Ashdown": ("Ashdown", _, _, 1922, 2010, "Ashcombe Hall", "Greyfriars Priory", _, _, _),
    "Philippa Corwen": ("Corwen", _, _, 1912, 1990, "Ravenscar Keep", "Thornby Church", "Baroness of Thornby", _, _),
    # generation 5
    "Edric V": ("Aldermere", "Edric IV", "Beatrix Harrow", 1936, 2012, "Varnholt Castle", "Dunmere Abbey",
                "Duke of Varn", 1971, 2012),
    "Isolde Aldermere": ("Aldermere", "Edric IV", "Beatrix Harrow", 1938, _, "Varnholt Castle", _, _, _, _),
    "Roland I": ("Aldermere", "Edric IV", "Beatrix Harrow", 1941, _, "Ravenscar Keep", _, "Duke of Varn", 2012, _),
    "Cressida Aldermere": ("Aldermere", "Edric IV", "Beatrix Harrow", 1945, 2019, "Hallowfen", "Greyfriars Priory",
                           _, _, _),
    "Ranulf Threlkeld": ("Threlkeld", "Piers Threlkeld", "Margery Aldermere", 1932, 2015, "Kessmoor",
                         "St Aldhelm's Church", "Earl of Kessmoor", _, _),
    "Elswyth Threlkeld": ("Threlkeld", "Piers Threlkeld", "Margery Aldermere", 1934, 2020, "Kessmoor",
                          "St Aldhelm's Church", _, _, _),
    "Tamsin Threlkeld": ("Threlkeld", "Piers Threlkeld", "Margery Aldermere", 1939, _, "Brightwater", _, _, _, _),
    "Benedict Aldermere": ("Aldermere", "Leofric Aldermere", "Sibyl Ashdown", 1950, _, "Hallowfen", _,
                           "Lord of Hallowfen", _, _),
    "Rosalind Aldermere": ("Aldermere", "Leofric Aldermere", "Sibyl Ashdown", 1953, _, "Hallowfen", _, _, _, _),
    "Conrad Vance": ("Vance", "Hamon Vance", "Alys Brenning", 1930, 1998, "Ashcombe Hall", "Greyfriars Priory",
                     _, _, _),
    "Alys Vance": ("Vance", "Hamon Vance", "Alys Brenning", 1933, 2021, "Ashcombe Hall", "Greyfriars Priory",
                   _, _, _),
    "Odette Brenning": ("Brenning", "Gilbert Brenning", "Philippa Corwen", 1937, _, "Thornby", _,
                        "Countess of Kessmoor", _, _),
    "Helena Marlowe": ("Marlowe", _, _, 1940, _, "Brightwater", _, "Duchess of Varn", _, _),
}
# couples, stored once each, in whichever order the spreadsheet's author happened to type them
SPOUSES = [
    ("Edric I", "Matilda Corwen"), ("Elswyth Harrow", "Godric Threlkeld"), ("Isolde Threlkeld", "Edric II"),
    ("Baldwin Threlkeld", "Alys Aldermere"), ("Edric III", "Elinor Vance"), ("Rowena Aldermere", "Aldous Brenning"),
    ("Godric Threlkeld the Younger", "Cecily Marlowe"), ("Beatrix Harrow", "Edric IV"),
    ("Margery Aldermere", "Piers Threlkeld"), ("Alys Brenning", "Hamon Vance"),
    ("Leofric Aldermere", "Sibyl Ashdown"), ("Gilbert Brenning", "Philippa Corwen"), ("Edric V", "Helena Marlowe"),
    ("Odette Brenning", "Ranulf Threlkeld"),
]

# ----------------------------------------------------------------- triples, one person at a time, as in a spreadsheet
T = []
spoused = {a: b for a, b in SPOUSES}
for name, (house, fa, mo, born, died, born_in, buried, title, rf, rt) in PEOPLE.items():
    for rel, val in [("house", house), ("father", fa), ("mother", mo), ("spouse", spoused.get(name)),
                     ("born", born), ("born_in", born_in), ("died", died), ("buried_at", buried), ("title", title),
                     ("reigned_from", rf), ("reigned_to", rt)]:
        if val is not None:
            T.append((name, rel, str(val)))
for place, region in PLACES.items():
    T.append((place, "region", region))
assert len(T) == len(set(T))
for s, p, o in T:
    assert "\t" not in s + p + o and "\n" not in s + p + o
with open(os.path.join(OUT, "dynasty.tsv"), "w", encoding="utf-8") as f:
    for t in T:
        f.write("\t".join(t) + "\n")

# ----------------------------------------------------------------- gold answers, from the triples only
def objs(s, p): return [o for s2, p2, o in T if s2 == s and p2 == p]
def subs(p, o): return [s for s, p2, o2 in T if p2 == p and o2 == o]
def one(s, p):
    v = objs(s, p)
    assert len(v) == 1, (s, p, v)
    return v[0]
def hop(xs, p): return uniq([o for x in xs for o in objs(x, p)])
def uniq(xs):
    seen = []
    for x in xs:
        if x not in seen: seen.append(x)
    return seen
people = uniq([s for s, p, _o in T if p == "born"])
def E(name):
    assert name in people or name in PLACES, name
    return name
def father(x): return objs(E(x), "father")
def mother(x): return objs(E(x), "mother")
def parents(x): return father(x) + mother(x)
def children(x): return uniq(subs("father", E(x)) + subs("mother", E(x)))
def spouse(x): return uniq(objs(E(x), "spouse") + subs("spouse", E(x)))
def siblings(x): return uniq([c for p in parents(x) for c in children(p) if c != x])
def grandchildren(x): return uniq([g for c in children(x) for g in children(c)])
def year(x, p): return int(one(x, p))
def first(xs, p, best):
    b = best(year(x, p) for x in xs if objs(x, p))
    win = [x for x in xs if objs(x, p) and year(x, p) == b]
    assert len(win) == 1, win  # superlatives must have one clear winner
    return win
def alive(x): return not objs(x, "died")
def of_house(h): return subs("house", h)

Q = [
  # ---- one hop (parents, spouse either way round, attributes; a first name only, a typo)
  ("who was Edric III's dad?", father("Edric III")),
  ("who is Rosalind's mum?", mother("Rosalind Aldermere")),
  ("who was Leofrick Aldermere's mother?", mother("Leofric Aldermere")),
  ("where was Gilbert Brenning born?", objs(E("Gilbert Brenning"), "born_in")),
  ("when did Wystan Aldermere die?", objs(E("Wystan Aldermere"), "died")),
  ("when was Cressida Aldermere born?", objs(E("Cressida Aldermere"), "born")),
  ("who was Piers Threlkeld's wife?", spouse("Piers Threlkeld")),
  ("who was Isolde Threlkeld's husband?", spouse("Isolde Threlkeld")),
  ("who is Helena Marlowe's husband?", spouse("Helena Marlowe")),
  ("who did Godric Threlkeld marry?", spouse("Godric Threlkeld")),
  ("where is Elinor Vance buried?", objs(E("Elinor Vance"), "buried_at")),
  ("which house does Odette come from?", objs(E("Odette Brenning"), "house")),
  ("what title did Aldous Brenning hold?", objs(E("Aldous Brenning"), "title")),
  ("when did Edric IV become duke?", objs(E("Edric IV"), "reigned_from")),
  ("when did Edric II's reign end?", objs(E("Edric II"), "reigned_to")),
  # ---- children (inverse of father/mother), siblings
  ("who were Edric III's children?", children("Edric III")),
  ("who were Cecily Marlowe's kids?", children("Cecily Marlowe")),
  ("who are Edric V's brothers and sisters?", siblings("Edric V")),
  # ---- two hops
  ("who was Ranulf Threlkeld's grandfather on his father's side?", hop(father("Ranulf Threlkeld"), "father")),
  ("who was Tamsin Threlkeld's grandfather on her mother's side?", hop(mother("Tamsin Threlkeld"), "father")),
  ("who was the mother of Edric IV's father?", hop(father("Edric IV"), "mother")),
  ("who were Benedict Aldermere's grandparents?", hop(parents("Benedict Aldermere"), "father")
                                                  + hop(parents("Benedict Aldermere"), "mother")),
  ("who were Rowena Aldermere's grandchildren?", grandchildren("Rowena Aldermere")),
  ("where is Alys Vance's father buried?", hop(father("Alys Vance"), "buried_at")),
  ("in which region was Hamon Vance born?", hop(objs(E("Hamon Vance"), "born_in"), "region")),
  ("which part of the country was Cecily Marlowe born in?", hop(objs(E("Cecily Marlowe"), "born_in"), "region")),
  ("who was Roland I's mother married to?", [w for m in mother("Roland I") for w in spouse(m)]),
  ("when was Edric V's wife born?", hop(spouse("Edric V"), "born")),
  ("what titles did Piers Threlkeld's children hold?", hop(children("Piers Threlkeld"), "title")),
  # ---- three hops
  ("in which region was the paternal grandfather of Odette Brenning born?",
     hop(hop(hop(father("Odette Brenning"), "father"), "born_in"), "region")),
  ("where was Tamsin Threlkeld's grandmother on her mother's side born?",
     hop(hop(mother("Tamsin Threlkeld"), "mother"), "born_in")),
  ("in which region are Alys Aldermere's children buried?", hop(hop(children("Alys Aldermere"), "buried_at"), "region")),
  # ---- counts
  ("how many children did Edric II have?", [len(children("Edric II"))]),
  ("how many kids did Margery Aldermere have?", [len(children("Margery Aldermere"))]),
  ("how many grandchildren did Edric III have?", [len(grandchildren("Edric III"))]),
  ("how many people in the family were born at Varnholt Castle?", [len(subs("born_in", E("Varnholt Castle")))]),
  ("how many Dukes of Varn have there been?", [len(subs("title", "Duke of Varn"))]),
  # ---- superlatives (orderings, no arithmetic)
  ("who was born first among Edric II's children?", first(children("Edric II"), "born", min)),
  ("which of Piers Threlkeld's children was born last?", first(children("Piers Threlkeld"), "born", max)),
  ("which ruler started reigning earliest?", first(people, "reigned_from", min)),
  ("who is the youngest person in the family?", first(people, "born", max)),
  # ---- comparisons
  ("which members of house Threlkeld were born before 1860?",
     [x for x in of_house("Threlkeld") if year(x, "born") < 1860]),
  ("which Dukes of Varn came to the throne after 1900?",
     [x for x in subs("title", "Duke of Varn") if year(x, "reigned_from") > 1900]),
  # ---- conjunction, negation
  ("who was born at Ravenscar Keep and buried at Dunmere Abbey?",
     [x for x in subs("born_in", E("Ravenscar Keep")) if E("Dunmere Abbey") in objs(x, "buried_at")]),
  ("which of Edric IV's children are still alive?", [c for c in children("Edric IV") if alive(c)]),
]
with open(os.path.join(OUT, "dynasty_q.jsonl"), "w", encoding="utf-8") as f:
    for i, (text, ans) in enumerate(Q):
        ans = [str(a) for a in ans]
        assert 1 <= len(ans) <= 8, (text, ans)
        assert len(ans) == len(set(ans)), (text, ans)
        f.write(json.dumps({"id": "dynasty-%d" % i, "question": text, "answers": ans}) + "\n")

assert 35 <= len(people) <= 45 and 200 <= len(T) <= 350 and 40 <= len(Q) <= 45, (len(people), len(T), len(Q))
print("people:", len(people), "triples:", len(T), "questions:", len(Q))
print("relations:", ", ".join(uniq(p for _s, p, _o in T)))
