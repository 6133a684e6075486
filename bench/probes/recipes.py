"""Made-up recipe & restaurant guide KG (3-column CSV) plus test questions."""
import csv, json, os, sys

OUT = sys.argv[1] if len(sys.argv) > 1 else "."
os.makedirs(OUT, exist_ok=True)

CUISINE_COUNTRY = {
    "Italian": "Italy", "Sicilian": "Italy", "Portuguese": "Portugal",
    "Thai": "Thailand", "Japanese": "Japan", "Mexican": "Mexico",
}
TOWN_COUNTRY = {
    "Porto Alto": "Portugal", "Vila Serena": "Portugal", "Bellamare": "Italy",
    "Monteluce": "Italy", "Chiang Lom": "Thailand", "Kawabe": "Japan",
    "Santa Rosa": "Mexico", "Riomar": "Mexico",
}
# chef: (born_in, trained_under or None)
CHEFS = {
    "Ines Duarte": ("Porto Alto", "Ana Tavares"),
    "Ana Tavares": ("Vila Serena", "Lucia Ferro"),
    "Marco Bellini": ("Monteluce", "Lucia Ferro"),
    "Lucia Ferro": ("Bellamare", None),
    "Somchai Rattana": ("Chiang Lom", "Kenji Mori"),
    "Nok Chaiyaporn": ("Chiang Lom", "Somchai Rattana"),
    "Kenji Mori": ("Kawabe", None),
    "Rafael Ortega": ("Santa Rosa", None),
    "Diego Salinas": ("Riomar", "Rafael Ortega"),
}
# recipe: (main, [ingredients incl. main], cuisine, chef, calories, prep_minutes, vegetarian)
RECIPES = {
    "Lemon Tart": ("Lemon", ["Lemon", "Butter", "Flour", "Eggs", "Sugar"], "Portuguese", "Ines Duarte", 420, 75, "yes"),
    "Harvest Soup": ("Potato", ["Potato", "Onion", "Garlic", "Olive Oil", "Chickpeas"], "Portuguese", "Ana Tavares", 280, 45, "yes"),
    "Bacalhau Bake": ("Cod", ["Cod", "Potato", "Onion", "Garlic", "Olive Oil", "Eggs"], "Portuguese", "Ines Duarte", 610, 90, "no"),
    "Pastel de Nata": ("Eggs", ["Eggs", "Sugar", "Butter", "Flour"], "Portuguese", "Ana Tavares", 300, 60, "yes"),
    "Chickpea Stew": ("Chickpeas", ["Chickpeas", "Tomato", "Onion", "Garlic", "Olive Oil", "Lemon"], "Portuguese", "Ines Duarte", 350, 65, "yes"),
    "Margherita Pizza": ("Tomato", ["Tomato", "Basil", "Flour", "Olive Oil", "Mozzarella"], "Italian", "Marco Bellini", 850, 40, "yes"),
    "Spaghetti Aglio e Olio": ("Garlic", ["Garlic", "Olive Oil", "Chili", "Parmesan", "Pasta"], "Italian", "Marco Bellini", 520, 20, "yes"),
    "Chicken Piccata": ("Chicken", ["Chicken", "Lemon", "Butter", "Garlic", "Flour"], "Italian", "Lucia Ferro", 480, 35, "no"),
    "Mushroom Risotto": ("Rice", ["Rice", "Mushrooms", "Parmesan", "Butter", "Onion"], "Italian", "Lucia Ferro", 560, 50, "yes"),
    "Arancini": ("Rice", ["Rice", "Parmesan", "Eggs", "Flour", "Pork"], "Sicilian", "Marco Bellini", 390, 80, "no"),
    "Caponata": ("Eggplant", ["Eggplant", "Tomato", "Onion", "Olive Oil", "Basil"], "Sicilian", "Lucia Ferro", 210, 55, "yes"),
    "Green Curry": ("Chicken", ["Chicken", "Coconut Milk", "Lemongrass", "Chili", "Basil"], "Thai", "Somchai Rattana", 640, 40, "no"),
    "Tom Yum": ("Shrimp", ["Shrimp", "Lemongrass", "Lime", "Chili", "Mushrooms"], "Thai", "Somchai Rattana", 190, 30, "no"),
    "Pad Thai": ("Tofu", ["Tofu", "Eggs", "Lime", "Garlic", "Chili"], "Thai", "Somchai Rattana", 540, 25, "yes"),
    "Mango Sticky Rice": ("Rice", ["Rice", "Coconut Milk", "Sugar", "Mango"], "Thai", "Nok Chaiyaporn", 420, 35, "yes"),
    "Miso Ramen": ("Pork", ["Pork", "Miso", "Ginger", "Eggs", "Garlic"], "Japanese", "Kenji Mori", 720, 150, "no"),
    "Vegetable Tempura": ("Flour", ["Flour", "Eggs", "Mushrooms", "Potato"], "Japanese", "Kenji Mori", 450, 30, "yes"),
    "Teriyaki Salmon": ("Salmon", ["Salmon", "Ginger", "Sugar", "Garlic"], "Japanese", "Kenji Mori", 510, 25, "no"),
    "Black Bean Tacos": ("Black Beans", ["Black Beans", "Corn", "Avocado", "Lime", "Cilantro"], "Mexican", "Diego Salinas", 430, 20, "yes"),
    "Guacamole": ("Avocado", ["Avocado", "Lime", "Onion", "Cilantro", "Chili"], "Mexican", "Diego Salinas", 230, 10, "yes"),
    "Chicken Mole": ("Chicken", ["Chicken", "Chili", "Onion", "Garlic", "Tomato"], "Mexican", "Rafael Ortega", 780, 180, "no"),
    "Elote": ("Corn", ["Corn", "Butter", "Lime", "Chili", "Parmesan"], "Mexican", "Rafael Ortega", 260, 15, "yes"),
}
# restaurant: (head_chef, town, [serves], stars, opened, price, rating)
RESTAURANTS = {
    "Casa Verde": ("Ines Duarte", "Porto Alto", ["Lemon Tart", "Bacalhau Bake", "Chickpea Stew", "Pastel de Nata"], 1, 2012, "$$", "4.6"),
    "Tasca do Rio": ("Ana Tavares", "Porto Alto", ["Harvest Soup", "Pastel de Nata", "Bacalhau Bake"], 0, 1998, "$", "4.2"),
    "Baan Thai": ("Nok Chaiyaporn", "Porto Alto", ["Green Curry", "Pad Thai", "Mango Sticky Rice"], 0, 2016, "$$", "4.4"),
    "Trattoria Luna": ("Marco Bellini", "Bellamare", ["Margherita Pizza", "Spaghetti Aglio e Olio", "Arancini"], 1, 2005, "$$", "4.5"),
    "Villa Ferro": ("Lucia Ferro", "Monteluce", ["Chicken Piccata", "Mushroom Risotto", "Caponata", "Arancini"], 3, 1987, "$$$", "4.9"),
    "Sabai Garden": ("Somchai Rattana", "Chiang Lom", ["Green Curry", "Tom Yum", "Pad Thai", "Mango Sticky Rice"], 2, 2009, "$$$", "4.8"),
    "Hoshi": ("Kenji Mori", "Kawabe", ["Miso Ramen", "Vegetable Tempura", "Teriyaki Salmon"], 2, 2011, "$$$", "4.7"),
    "La Cocina de Rafa": ("Rafael Ortega", "Santa Rosa", ["Chicken Mole", "Elote", "Guacamole"], 1, 1992, "$$", "4.3"),
    "El Maizal": ("Diego Salinas", "Riomar", ["Black Bean Tacos", "Guacamole", "Elote"], 0, 2019, "$", "4.0"),
}

# ---------------- triples ----------------
triples = []
for r, (main, ings, cui, chef, cal, mins, veg) in RECIPES.items():
    triples.append((r, "main_ingredient", main))
    for i in ings:
        triples.append((r, "ingredient", i))
    triples += [(r, "cuisine", cui), (r, "created_by", chef), (r, "calories", str(cal)),
                (r, "prep_minutes", str(mins)), (r, "vegetarian", veg)]
for c, (born, mentor) in CHEFS.items():
    triples.append((c, "born_in", born))
    if mentor:
        triples.append((c, "trained_under", mentor))
for name, (chef, town, menu, stars, opened, price, rating) in RESTAURANTS.items():
    triples += [(name, "head_chef", chef), (name, "located_in", town)]
    for d in menu:
        triples.append((name, "serves", d))
    triples += [(name, "michelin_stars", str(stars)), (name, "opened", str(opened)),
                (name, "price_range", price), (name, "rating", rating)]
for t, co in TOWN_COUNTRY.items():
    triples.append((t, "country", co))
for cu, co in CUISINE_COUNTRY.items():
    triples.append((cu, "country", co))

with open(os.path.join(OUT, "recipes.csv"), "w", newline="", encoding="utf-8") as f:
    w = csv.writer(f)
    for t in triples:
        w.writerow(t)

# ---------------- helpers ----------------
def rec(field):
    idx = {"main": 0, "ings": 1, "cuisine": 2, "chef": 3, "cal": 4, "mins": 5, "veg": 6}[field]
    return {r: v[idx] for r, v in RECIPES.items()}
def rest(field):
    idx = {"chef": 0, "town": 1, "menu": 2, "stars": 3, "opened": 4, "price": 5, "rating": 6}[field]
    return {r: v[idx] for r, v in RESTAURANTS.items()}

ING, CUI, CHEF, CAL, MINS, VEG, MAIN = (rec(k) for k in ("ings", "cuisine", "chef", "cal", "mins", "veg", "main"))
RCHEF, RTOWN, MENU, STARS, OPENED, RATING = (rest(k) for k in ("chef", "town", "menu", "stars", "opened", "rating"))

def recipes_by(chef): return [r for r in RECIPES if CHEF[r] == chef]
def recipes_with(ing): return [r for r in RECIPES if ing in ING[r]]
def serving(dish): return [n for n in RESTAURANTS if dish in MENU[n]]
def students(chef): return [c for c, (_, m) in CHEFS.items() if m == chef]
def uniq(xs):
    out = []
    for x in xs:
        if x not in out:
            out.append(x)
    return out
def argbest(items, key, pick=max):
    best = pick(key(x) for x in items)
    win = [x for x in items if key(x) == best]
    assert len(win) == 1, win
    return win

Q = []
def q(text, answers):
    answers = [str(a) for a in uniq(answers)]
    assert 1 <= len(answers) <= 8, (text, answers)
    Q.append((text, answers))

# one-step (both directions)
q("who came up with the Lemon Tart?", [CHEF["Lemon Tart"]])
q("what's in the Harvest Soup?", ING["Harvest Soup"])
q("which dishes use chickpeas?", recipes_with("Chickpeas"))
q("where is Casa Verde?", [RTOWN["Casa Verde"]])
q("who's the head chef at Villa Ferro?", [RCHEF["Villa Ferro"]])
q("what can I order at Sabai Garden?", MENU["Sabai Garden"])
q("who taught Marco Bellini to cook?", [CHEFS["Marco Bellini"][1]])
q("what is Arancini mainly made of?", [MAIN["Arancini"]])
q("where can I get guacamole?", serving("Guacamole"))
q("which chefs learned from Lucia Ferro?", students("Lucia Ferro"))

# two-step
q("which towns have restaurants serving Thai food?",
  [RTOWN[n] for n in RESTAURANTS if any(CUI[d] == "Thai" for d in MENU[n])])
q("where was the head chef of Casa Verde born?", [CHEFS[RCHEF["Casa Verde"]][0]])
q("what country does Pad Thai come from?", [CUISINE_COUNTRY[CUI["Pad Thai"]]])
q("which restaurants serve dishes invented by Kenji Mori?",
  [n for n in RESTAURANTS if any(CHEF[d] == "Kenji Mori" for d in MENU[n])])
q("who was the mentor of the chef running El Maizal?", [CHEFS[RCHEF["El Maizal"]][1]])
q("which restaurants are in Mexico?", [n for n in RESTAURANTS if TOWN_COUNTRY[RTOWN[n]] == "Mexico"])
q("what ingredients go into the dishes Diego Salinas created?",
  [i for r in recipes_by("Diego Salinas") for i in ING[r]])

# three-step
q("which country is the cuisine of the dishes Ines Duarte created from?",
  [CUISINE_COUNTRY[CUI[r]] for r in recipes_by("Ines Duarte")])
q("in which country was the chef who runs Hoshi born?", [TOWN_COUNTRY[CHEFS[RCHEF["Hoshi"]][0]]])
q("which restaurants serve dishes created by Lucia Ferro's students?",
  [n for n in RESTAURANTS if any(CHEF[d] in students("Lucia Ferro") for d in MENU[n])])
q("what kinds of cuisine are served at restaurants in Porto Alto?",
  [CUI[d] for n in RESTAURANTS if RTOWN[n] == "Porto Alto" for d in MENU[n]])

# counts
q("how many recipes use garlic?", [len(recipes_with("Garlic"))])
q("how many restaurants are in Porto Alto?", [sum(1 for n in RESTAURANTS if RTOWN[n] == "Porto Alto")])
q("how many dishes does Villa Ferro have on the menu?", [len(MENU["Villa Ferro"])])
q("how many Mexican recipes are there?", [sum(1 for r in RECIPES if CUI[r] == "Mexican")])

# superlatives
q("which dish has the most calories?", argbest(list(RECIPES), lambda r: CAL[r]))
q("the quickest recipe to make", argbest(list(RECIPES), lambda r: MINS[r], min))
q("the best rated restaurant in Porto Alto",
  argbest([n for n in RESTAURANTS if RTOWN[n] == "Porto Alto"], lambda n: float(RATING[n])))
q("the oldest restaurant", argbest(list(RESTAURANTS), lambda n: OPENED[n], min))
q("what's the lightest Thai dish?", argbest([r for r in RECIPES if CUI[r] == "Thai"], lambda r: CAL[r], min))

# comparisons
q("recipes under 300 calories", [r for r in RECIPES if CAL[r] < 300])
q("restaurants with more than one Michelin star", [n for n in RESTAURANTS if STARS[n] > 1])
q("dishes that take longer than an hour", [r for r in RECIPES if MINS[r] > 60])

# vegetarian filter / negation
q("which of the dishes at Casa Verde are vegetarian?", [d for d in MENU["Casa Verde"] if VEG[d] == "yes"])
q("which Thai dishes aren't vegetarian?", [r for r in RECIPES if CUI[r] == "Thai" and VEG[r] == "no"])

# conjunctions
q("which recipes use both garlic and lemon?", [r for r in RECIPES if "Garlic" in ING[r] and "Lemon" in ING[r]])
q("which restaurants serve both guacamole and elote?", [n for n in RESTAURANTS if {"Guacamole", "Elote"} <= set(MENU[n])])

# first name / surname only, typo
q("what dishes did Ines come up with?", recipes_by("Ines Duarte"))
q("which restaurant does Bellini run?", [n for n in RESTAURANTS if RCHEF[n] == "Marco Bellini"])
q("what goes into spagetti aglio e olio?", ING["Spaghetti Aglio e Olio"])

# sanity: every answer occurs in the KG
nodes = {s for s, _, _ in triples} | {o for _, _, o in triples}
for text, answers in Q:
    for a in answers:
        assert a in nodes or a.isdigit(), (text, a)

with open(os.path.join(OUT, "recipes_q.jsonl"), "w", encoding="utf-8") as f:
    for k, (text, answers) in enumerate(Q):
        f.write(json.dumps({"id": f"recipes-{k}", "question": text, "answers": answers}) + "\n")

print(f"{len(triples)} triples, {len(Q)} questions -> {OUT}")
