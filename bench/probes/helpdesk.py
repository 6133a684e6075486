#!/usr/bin/env python3
"""A made-up company's IT helpdesk ticket export written as typed Turtle, plus blind
test questions whose gold answers are computed from the script's own tables."""
import json
import os
import sys
from collections import namedtuple
from datetime import date

Ref = namedtuple("Ref", "name")  # an IRI in the : namespace

# ---------------------------------------------------------------- tables
SITES = [  # key, label, city
    ("site_leeds", "Leeds Head Office", "Leeds"),
    ("site_manchester", "Manchester Office", "Manchester"),
    ("site_bristol", "Bristol Office", "Bristol"),
]

DEPTS = [  # key, label, site
    ("dept_finance", "Finance", "site_leeds"),
    ("dept_hr", "Human Resources", "site_leeds"),
    ("dept_exec", "Executive Office", "site_leeds"),
    ("dept_sales", "Sales", "site_manchester"),
    ("dept_ops", "Operations", "site_manchester"),
    ("dept_marketing", "Marketing", "site_bristol"),
]

EMPLOYEES = [  # key, full name, job title, department, VIP
    ("emp_priya_nair", "Priya Nair", "Accountant", "dept_finance", False),
    ("emp_tom_becker", "Tom Becker", "Finance Director", "dept_finance", True),
    ("emp_aisha_khan", "Aisha Khan", "Accountant", "dept_finance", False),
    ("emp_marcus_webb", "Marcus Webb", "Sales Manager", "dept_sales", False),
    ("emp_elena_rossi", "Elena Rossi", "Sales Manager", "dept_sales", False),
    ("emp_daniel_okafor", "Daniel Okafor", "Sales Executive", "dept_sales", False),
    ("emp_sophie_turner", "Sophie Turner", "Sales Executive", "dept_sales", False),
    ("emp_helen_price", "Helen Price", "HR Manager", "dept_hr", True),
    ("emp_raj_patel", "Raj Patel", "HR Advisor", "dept_hr", False),
    ("emp_grace_liu", "Grace Liu", "Marketing Lead", "dept_marketing", False),
    ("emp_oliver_grant", "Oliver Grant", "Content Designer", "dept_marketing", False),
    ("emp_fatima_ahmed", "Fatima Ahmed", "Operations Director", "dept_ops", True),
    ("emp_liam_murphy", "Liam Murphy", "Logistics Coordinator", "dept_ops", False),
    ("emp_noah_fischer", "Noah Fischer", "Warehouse Supervisor", "dept_ops", False),
    ("emp_chloe_martin", "Chloe Martin", "Chief Executive Officer", "dept_exec", True),
]

TECHS = [  # key, full name, job title, site worked from, team lead (or None)
    ("tech_sam_carter", "Sam Carter", "Service Desk Manager", "site_leeds", None),
    ("tech_mia_hughes", "Mia Hughes", "Service Desk Analyst", "site_leeds", "tech_sam_carter"),
    ("tech_zoe_adams", "Zoe Adams", "Network Engineer", "site_manchester", "tech_sam_carter"),
    ("tech_ben_walsh", "Ben Walsh", "Service Desk Analyst", "site_manchester", "tech_zoe_adams"),
    ("tech_ethan_cole", "Ethan Cole", "Desktop Support Technician", "site_bristol", "tech_sam_carter"),
]

DEVICES = [  # asset tag, type, manufacturer, model, issued to (employee) or None, located at (site) or None
    ("LT-1001", "Laptop", "Dell", "Latitude 5420", "emp_priya_nair", None),
    ("LT-1002", "Laptop", "Dell", "Latitude 5430", "emp_tom_becker", None),
    ("LT-1003", "Laptop", "Lenovo", "ThinkPad T14", "emp_aisha_khan", None),
    ("LT-1004", "Laptop", "Apple", "MacBook Pro 14", "emp_marcus_webb", None),
    ("LT-1005", "Laptop", "Dell", "Latitude 5430", "emp_elena_rossi", None),
    ("LT-1006", "Laptop", "Lenovo", "ThinkPad T14", "emp_daniel_okafor", None),
    ("LT-1007", "Laptop", "Apple", "MacBook Air", "emp_grace_liu", None),
    ("LT-1010", "Laptop", "Lenovo", "ThinkPad X1 Carbon", "emp_chloe_martin", None),
    ("LT-1011", "Laptop", "HP", "EliteBook 840", "emp_oliver_grant", None),
    ("DT-2001", "Desktop", "HP", "EliteDesk 800", "emp_raj_patel", None),
    ("PH-3001", "Mobile phone", "Apple", "iPhone 13", "emp_chloe_martin", None),
    ("PH-3002", "Mobile phone", "Samsung", "Galaxy S22", "emp_sophie_turner", None),
    ("PR-4001", "Printer", "HP", "LaserJet M607", None, "site_leeds"),
    ("PR-4002", "Printer", "Canon", "imageRUNNER C3226", None, "site_manchester"),
]

D = date
TICKETS = [
    # number, title, category, priority, status, reporter, technician, asset,
    # opened, resolved, hours spent, satisfaction, SLA breached
    ("INC-1001", "Laptop won't boot after update", "Hardware", "High", "Closed",
     "emp_priya_nair", "tech_mia_hughes", "LT-1001", D(2024, 1, 8), D(2024, 1, 10), 6, 4, False),
    ("INC-1002", "Cannot access payroll system", "Access", "Critical", "Resolved",
     "emp_tom_becker", "tech_sam_carter", None, D(2024, 1, 15), D(2024, 1, 15), 3, 5, False),
    ("INC-1003", "VPN keeps disconnecting", "Network", "High", "In progress",
     "emp_marcus_webb", "tech_zoe_adams", "LT-1004", D(2024, 3, 4), None, 9, None, True),
    ("INC-1004", "Printer jam on 3rd floor", "Hardware", "Low", "Resolved",
     "emp_aisha_khan", "tech_mia_hughes", "PR-4001", D(2024, 2, 5), D(2024, 2, 6), 2, 3, False),
    ("INC-1005", "Outlook not syncing calendar", "Email", "Medium", "Closed",
     "emp_elena_rossi", "tech_ben_walsh", "LT-1005", D(2024, 1, 22), D(2024, 1, 25), 4, 4, False),
    ("INC-1006", "New starter account setup", "Access", "Medium", "Closed",
     "emp_helen_price", "tech_mia_hughes", None, D(2024, 1, 29), D(2024, 1, 31), 3, 5, False),
    ("INC-1007", "Wi-Fi dead zone in meeting room B", "Network", "Medium", "Open",
     "emp_grace_liu", "tech_zoe_adams", None, D(2024, 3, 18), None, 5, None, False),
    ("INC-1008", "Excel crashes when opening large files", "Software", "Medium", "Waiting on customer",
     "emp_priya_nair", "tech_mia_hughes", "LT-1001", D(2024, 3, 11), None, 2, None, False),
    ("INC-1009", "Phone not receiving work email", "Email", "High", "Resolved",
     "emp_chloe_martin", "tech_sam_carter", "PH-3001", D(2024, 2, 12), D(2024, 2, 12), 1, 5, False),
    ("INC-1011", "Slow network at the warehouse", "Network", "Critical", "In progress",
     "emp_liam_murphy", "tech_zoe_adams", None, D(2024, 3, 20), None, 14, None, True),
    ("INC-1012", "Docking station not detecting monitors", "Hardware", "Medium", "Open",
     "emp_tom_becker", "tech_mia_hughes", "LT-1002", D(2024, 3, 25), None, 1, None, False),
    ("INC-1013", "CRM licence expired", "Software", "High", "Resolved",
     "emp_marcus_webb", "tech_ben_walsh", None, D(2024, 2, 19), D(2024, 2, 21), 5, 2, True),
    ("INC-1014", "Password reset for HR portal", "Access", "Low", "Closed",
     "emp_raj_patel", "tech_mia_hughes", None, D(2024, 1, 9), D(2024, 1, 9), 1, 5, False),
    ("INC-1015", "Colour printer producing streaks", "Hardware", "Low", "Waiting on customer",
     "emp_sophie_turner", "tech_ben_walsh", "PR-4002", D(2024, 3, 6), None, 2, None, False),
    ("INC-1016", "Email bouncing from external clients", "Email", "Critical", "Resolved",
     "emp_fatima_ahmed", "tech_sam_carter", None, D(2024, 2, 26), D(2024, 2, 27), 11, 4, True),
    ("INC-1017", "Adobe Creative Cloud won't activate", "Software", "Medium", "Closed",
     "emp_oliver_grant", "tech_ethan_cole", "LT-1011", D(2024, 2, 1), D(2024, 2, 5), 3, 3, False),
    ("INC-1018", "Laptop battery swelling", "Hardware", "Critical", "Resolved",
     "emp_grace_liu", "tech_ethan_cole", "LT-1007", D(2024, 2, 14), D(2024, 2, 16), 4, 5, False),
    ("INC-1020", "Teams calls dropping audio", "Software", "High", "Open",
     "emp_elena_rossi", "tech_ben_walsh", "LT-1005", D(2024, 3, 27), None, 3, None, False),
    ("INC-1021", "Access to finance reporting dashboard", "Access", "Medium", "In progress",
     "emp_aisha_khan", "tech_sam_carter", None, D(2024, 3, 13), None, 2, None, False),
    ("INC-1022", "Desktop overheating and shutting down", "Hardware", "High", "In progress",
     "emp_raj_patel", "tech_mia_hughes", "DT-2001", D(2024, 3, 8), None, 7, None, True),
    ("INC-1024", "Sage month-end posting error", "Software", "Critical", "Open",
     "emp_priya_nair", "tech_sam_carter", "LT-1001", D(2024, 3, 28), None, 6, None, True),
    ("INC-1025", "Mobile phone screen cracked", "Hardware", "Medium", "Waiting on customer",
     "emp_sophie_turner", "tech_ben_walsh", "PH-3002", D(2024, 3, 15), None, 1, None, False),
    ("INC-1026", "Firewall blocking supplier portal", "Network", "High", "Resolved",
     "emp_fatima_ahmed", "tech_zoe_adams", None, D(2024, 2, 20), D(2024, 2, 23), 12, 3, True),
    ("INC-1027", "Phishing email reported", "Email", "High", "Closed",
     "emp_tom_becker", "tech_sam_carter", None, D(2024, 1, 30), D(2024, 1, 30), 2, 5, False),
    ("INC-1028", "Keyboard keys sticking", "Hardware", "Low", "Waiting on customer",
     "emp_oliver_grant", "tech_ethan_cole", "LT-1011", D(2024, 3, 21), None, 1, None, False),
    ("INC-1030", "Remote desktop access for the CEO", "Access", "High", "Waiting on customer",
     "emp_chloe_martin", "tech_sam_carter", "LT-1010", D(2024, 3, 22), None, 2, None, False),
    ("INC-1031", "Network printer offline", "Network", "Medium", "Closed",
     "emp_liam_murphy", "tech_zoe_adams", "PR-4002", D(2024, 1, 24), D(2024, 1, 25), 3, 4, False),
    ("INC-1032", "Spam filter quarantining invoices", "Email", "Medium", "In progress",
     "emp_aisha_khan", "tech_mia_hughes", None, D(2024, 3, 19), None, 4, None, False),
]

CLASSES = [
    ("Site", "Site"),
    ("Department", "Department"),
    ("Employee", "Employee"),
    ("Technician", "IT technician"),
    ("Asset", "IT asset"),
    ("Ticket", "Ticket"),
]

PROPERTIES = [
    ("city", "city"),
    ("basedAt", "based at"),
    ("jobTitle", "job title"),
    ("worksIn", "works in"),
    ("isVIP", "is VIP"),
    ("worksFrom", "works from"),
    ("teamLead", "team lead"),
    ("deviceType", "device type"),
    ("manufacturer", "manufacturer"),
    ("model", "model"),
    ("issuedTo", "issued to"),
    ("locatedAt", "located at"),
    ("ticketNumber", "ticket number"),
    ("category", "category"),
    ("priority", "priority"),
    ("status", "status"),
    ("reportedBy", "reported by"),
    ("assignedTo", "assigned to"),
    ("concernsAsset", "concerns asset"),
    ("openedOn", "opened on"),
    ("resolvedOn", "resolved on"),
    ("hoursSpent", "hours spent"),
    ("satisfactionScore", "satisfaction score"),
    ("slaBreached", "SLA breached"),
]

# ---------------------------------------------------------------- triples
T = []  # (subject key, predicate, object) ; object is Ref or a python literal


def add(s, p, o):
    if o is not None:
        T.append((s, p, o))


def build():
    for c, lab in CLASSES:
        add(c, "a", Ref("rdfs:Class"))
        add(c, "rdfs:label", lab)
    for p, lab in PROPERTIES:
        add(p, "a", Ref("rdf:Property"))
        add(p, "rdfs:label", lab)
    for k, lab, city in SITES:
        add(k, "a", Ref("Site"))
        add(k, "rdfs:label", lab)
        add(k, "city", city)
    for k, lab, site in DEPTS:
        add(k, "a", Ref("Department"))
        add(k, "rdfs:label", lab)
        add(k, "basedAt", Ref(site))
    for k, name, title, dept, vip in EMPLOYEES:
        add(k, "a", Ref("Employee"))
        add(k, "rdfs:label", name)
        add(k, "jobTitle", title)
        add(k, "worksIn", Ref(dept))
        add(k, "isVIP", vip)
    for k, name, title, site, lead in TECHS:
        add(k, "a", Ref("Technician"))
        add(k, "rdfs:label", name)
        add(k, "jobTitle", title)
        add(k, "worksFrom", Ref(site))
        add(k, "teamLead", Ref(lead) if lead else None)
    for tag, typ, make, model, emp, site in DEVICES:
        add(tag, "a", Ref("Asset"))
        add(tag, "rdfs:label", tag)
        add(tag, "deviceType", typ)
        add(tag, "manufacturer", make)
        add(tag, "model", model)
        add(tag, "issuedTo", Ref(emp) if emp else None)
        add(tag, "locatedAt", Ref(site) if site else None)
    for (num, title, cat, prio, status, rep, tech, asset,
         opened, resolved, hours, sat, sla) in TICKETS:
        add(num, "a", Ref("Ticket"))
        add(num, "rdfs:label", title)
        add(num, "ticketNumber", num)
        add(num, "category", cat)
        add(num, "priority", prio)
        add(num, "status", status)
        add(num, "reportedBy", Ref(rep))
        add(num, "assignedTo", Ref(tech))
        add(num, "concernsAsset", Ref(asset) if asset else None)
        add(num, "openedOn", opened)
        add(num, "resolvedOn", resolved)
        add(num, "hoursSpent", hours)
        add(num, "satisfactionScore", sat)
        add(num, "slaBreached", sla)


# ---------------------------------------------------------------- turtle
def term(o):
    if isinstance(o, Ref):
        return o.name if ":" in o.name else ":" + o.name
    if isinstance(o, bool):
        return '"%s"^^xsd:boolean' % ("true" if o else "false")
    if isinstance(o, int):
        return '"%d"^^xsd:integer' % o
    if isinstance(o, date):
        return '"%s"^^xsd:date' % o.isoformat()
    s = str(o).replace("\\", "\\\\").replace('"', '\\"')
    return '"%s"' % s


def pred(p):
    return p if (p == "a" or ":" in p) else ":" + p


def turtle():
    out = [
        "# IT Service Desk - full export (tickets, people, assets, sites)",
        "# Generated by helpdesk admin export tool",
        "@prefix : <http://example.org/helpdesk/> .",
        "@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .",
        "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .",
        "@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .",
        "",
    ]
    subjects = []
    for s, _, _ in T:
        if s not in subjects:
            subjects.append(s)
    for s in subjects:
        pos = [(p, o) for (a, p, o) in T if a == s]
        lines = ["    %s %s" % (pred(p), term(o)) for p, o in pos]
        out.append(":%s\n%s .\n" % (s, " ;\n".join(lines)))
    return "\n".join(out)


# ---------------------------------------------------------------- query helpers
def objs(s, p):
    return [o for (a, b, o) in T if a == s and b == p]


def obj(s, p):
    xs = objs(s, p)
    assert len(xs) == 1, (s, p, xs)
    return xs[0]


def opt(s, p):
    xs = objs(s, p)
    return xs[0] if xs else None


def subjs(p, o):
    return [a for (a, b, c) in T if b == p and c == o]


def ref_key(o):
    assert isinstance(o, Ref), o
    return o.name


def fwd(s, p):
    """Hop forwards along an entity-valued property."""
    return ref_key(obj(s, p))


def back(p, s):
    """Hop backwards: everything that points at s via p."""
    return subjs(p, Ref(s))


def instances(cls):
    return subjs("a", Ref(cls))


def label(s):
    return obj(s, "rdfs:label")


def labels(keys):
    out = sorted(set(label(k) for k in keys))
    assert out, "empty answer"
    return out


def lex(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, date):
        return v.isoformat()
    return str(v)


def count(xs):
    return [str(len(list(xs)))]


def yes(b):
    return ["true" if b else "false"]


def argmax(keys, score):
    keys = list(keys)
    best = max(score(k) for k in keys)
    winners = [k for k in keys if score(k) == best]
    assert len(winners) == 1, ("tie", winners)
    return winners[0]


def argmin(keys, score):
    keys = list(keys)
    best = min(score(k) for k in keys)
    winners = [k for k in keys if score(k) == best]
    assert len(winners) == 1, ("tie", winners)
    return winners[0]


def where(cls, **conds):
    """Instances of cls whose literal properties equal the given values."""
    return [k for k in instances(cls)
            if all(opt(k, p) == v for p, v in conds.items())]


def ticket(word):
    """The single ticket whose title mentions word (case-insensitive)."""
    hits = [k for k in instances("Ticket") if word.lower() in label(k).lower()]
    assert len(hits) == 1, (word, hits)
    return hits[0]


def person(first):
    hits = [k for k in instances("Employee") + instances("Technician")
            if label(k).split()[0].lower() == first.lower()]
    assert len(hits) == 1, (first, hits)
    return hits[0]


def by_label(cls, lab):
    hits = [k for k in instances(cls) if label(k) == lab]
    assert len(hits) == 1, (cls, lab, hits)
    return hits[0]


# ---------------------------------------------------------------- questions
def questions():
    tickets = instances("Ticket")
    techs = instances("Technician")
    emps = instances("Employee")
    devices = instances("Asset")
    depts = instances("Department")
    Q = []

    def q(text, answers):
        assert answers and all(isinstance(a, str) for a in answers), text
        Q.append((text, answers))

    q("what tickets has Priya raised?",
      labels(back("reportedBy", person("Priya"))))
    q("who's working on the VPN ticket",
      labels([fwd(ticket("VPN"), "assignedTo")]))
    finance = by_label("Department", "Finance")
    q("which laptops does finance have",
      labels([d for d in devices if obj(d, "deviceType") == "Laptop"
              and opt(d, "issuedTo") is not None
              and fwd(fwd(d, "issuedTo"), "worksIn") == finance]))
    q("which department does the person who reported INC-1013 work in?",
      labels([fwd(fwd(where("Ticket", ticketNumber="INC-1013")[0], "reportedBy"), "worksIn")]))
    q("where is the technician handling the printer jam ticket based?",
      labels([fwd(fwd(ticket("printer jam"), "assignedTo"), "worksFrom")]))
    q("show me all the tickets with status open",
      labels(where("Ticket", status="Open")))
    q("show me the critical tickets",
      labels(where("Ticket", priority="Critical")))
    q("how many high priority network tickets are there?",
      count(where("Ticket", priority="High", category="Network")))
    q("which tickets are waiting on the customer?",
      labels(where("Ticket", status="Waiting on customer")))
    q("who are the sales managers?",
      labels(where("Employee", jobTitle="Sales Manager")))
    q("which Dell laptops are there?",
      labels(where("Asset", manufacturer="Dell", deviceType="Laptop")))
    q("tickets opened after 1 March 2024",
      labels([t for t in tickets if obj(t, "openedOn") > date(2024, 3, 1)]))
    q("which tickets took more than 10 hours?",
      labels([t for t in tickets if obj(t, "hoursSpent") > 10]))
    q("which technician has the most tickets?",
      labels([argmax(techs, lambda k: len(back("assignedTo", k)))]))
    q("what's the oldest ticket that's still marked open?",
      labels([argmin(where("Ticket", status="Open"), lambda t: obj(t, "openedOn"))]))
    q("which VIP users have tickets marked open?",
      labels([e for e in emps if obj(e, "isVIP") is True
              and any(obj(t, "status") == "Open" for t in back("reportedBy", e))]))
    q("which technicians have no tickets in open status?",
      labels([k for k in techs
              if not any(obj(t, "status") == "Open" for t in back("assignedTo", k))]))
    q("is the payroll ticket resolved?",
      yes(obj(ticket("payroll"), "status") == "Resolved"))
    q("what's the status of the teams audio ticket",
      [obj(ticket("Teams calls"), "status")])
    q("what priority is INC-1011?",
      [obj(where("Ticket", ticketNumber="INC-1011")[0], "priority")])
    q("how many tickets are in progress right now?",
      count(where("Ticket", status="In progress")))
    q("list the email tickets",
      labels(where("Ticket", category="Email")))
    q("which hardware tickets are high priority?",
      labels(where("Ticket", category="Hardware", priority="High")))
    q("who reported the battery swelling issue?",
      labels([fwd(ticket("battery swelling"), "reportedBy")]))
    q("who is Ben's team lead?",
      labels([fwd(person("Ben"), "teamLead")]))
    q("which accountants have raised tickets?",
      labels([e for e in where("Employee", jobTitle="Accountant")
              if back("reportedBy", e)]))
    q("how many tickets breached the SLA?",
      count(where("Ticket", slaBreached=True)))
    q("what office does whoever raised the VPN ticket work at?",
      labels([fwd(fwd(fwd(ticket("VPN"), "reportedBy"), "worksIn"), "basedAt")]))
    q("who has laptop LT-1003?",
      labels([fwd(by_label("Asset", "LT-1003"), "issuedTo")]))
    q("what got resolved in february 2024?",
      labels([t for t in tickets if opt(t, "resolvedOn") is not None
              and date(2024, 2, 1) <= obj(t, "resolvedOn") <= date(2024, 2, 29)]))
    q("when was the CRM licence ticket opened?",
      [lex(obj(ticket("CRM licence"), "openedOn"))])
    q("how many hours went into the firewall ticket?",
      [lex(obj(ticket("firewall"), "hoursSpent"))])
    q("which tickets got a satisfaction score of 5?",
      labels(where("Ticket", satisfactionScore=5)))
    q("which department raised the most tickets?",
      labels([argmax(depts, lambda d: sum(len(back("reportedBy", e))
                                          for e in back("worksIn", d)))]))
    q("are there any critical tickets waiting on the customer?",
      yes(len(where("Ticket", priority="Critical", status="Waiting on customer")) > 0))
    q("is Helen a VIP?",
      [lex(obj(person("Helen"), "isVIP"))])
    q("which closed tickets were about access?",
      labels(where("Ticket", status="Closed", category="Access")))
    q("what software tickets does Ben have?",
      labels([t for t in back("assignedTo", person("Ben"))
              if obj(t, "category") == "Software"]))
    marcus_laptops = [d for d in back("issuedTo", person("Marcus"))
                      if obj(d, "deviceType") == "Laptop"]
    assert len(marcus_laptops) == 1
    q("what make is Marcus's laptop?",
      [obj(marcus_laptops[0], "manufacturer")])
    hr = by_label("Department", "Human Resources")
    q("which people in HR have logged hardware tickets?",
      labels([e for e in back("worksIn", hr)
              if any(obj(t, "category") == "Hardware" for t in back("reportedBy", e))]))
    q("which technicians work out of the Manchester office?",
      labels(back("worksFrom", by_label("Site", "Manchester Office"))))
    q("how many medium priority tickets are waiting on the customer?",
      count(where("Ticket", priority="Medium", status="Waiting on customer")))
    q("what's the most recent ticket Sophie logged?",
      labels([argmax(back("reportedBy", person("Sophie")), lambda t: obj(t, "openedOn"))]))
    q("which devices have had more than one ticket?",
      labels([d for d in devices if len(back("concernsAsset", d)) > 1]))
    q("who reports to Sam?",
      labels(back("teamLead", person("Sam"))))
    return Q


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: python helpdesk.py DIR")
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    build()
    qs = questions()
    assert len(qs) == 45, len(qs)
    with open(os.path.join(outdir, "helpdesk.ttl"), "w", encoding="utf-8") as f:
        f.write(turtle())
    with open(os.path.join(outdir, "helpdesk_q.jsonl"), "w", encoding="utf-8") as f:
        for i, (text, answers) in enumerate(qs, 1):
            f.write(json.dumps({"id": "helpdesk-%d" % i, "question": text,
                                "answers": answers}) + "\n")
    print("wrote %d triples and %d questions to %s" % (len(T), len(qs), outdir))


if __name__ == "__main__":
    main()
