import csv, sys, subprocess, os, shutil, collections, tempfile
# Counts for traces/lockstep-continuation-test262.md from `morphtrace-analyze export --csv`:
# python3 scripts/lockstep-measure.py BEFORE.mtrace AFTER.mtrace (run from the repository root).
A=os.environ.get('MORPHTRACE_ANALYZE', os.path.join(os.environ.get('CARGO_TARGET_DIR', os.path.expanduser('~/.cache/morphtrace/target')), 'debug', 'morphtrace-analyze'))
def measure(archive):
    out=os.path.join(tempfile.mkdtemp(), 'csv')
    shutil.rmtree(out, ignore_errors=True)
    subprocess.run([A,'export',archive,'--csv',out],cwd=os.getcwd(),check=True,capture_output=True)
    ses=list(csv.DictReader(open(out+'/sessions.csv')))
    div=list(csv.DictReader(open(out+'/divergences.csv')))
    # Rates count judged sessions only; undecided ones are shown by reason.
    undecided=collections.Counter(s['outcome'] for s in ses if s['outcome'] in ('timeout','harness-error','rejected'))
    judged={(s['archive'],s['session']) for s in ses if s['outcome'] not in undecided}
    div=[d for d in div if (d['archive'],d['session']) in judged]
    n=len(judged)
    by=collections.defaultdict(list)
    for d in div: by[(d['archive'],d['session'])].append(d)
    ended_triaged=0; ended_div=0
    for k,ds in by.items():
        ds.sort(key=lambda d:int(d['index']))
        last=ds[-1]
        if last['continued']=='':
            ended_div+=1
            if last['verdict'] in ('by design','representation'): ended_triaged+=1
    classes=set((d['kind'],d['last_action'],d['ast_node']) for d in div)
    newc=set((d['kind'],d['last_action'],d['ast_node']) for d in div if d['verdict'] in ('new','engine bug'))
    gone=sum(1 for d in div if d['continued']!='')
    und=', '.join(f'{k} {v}' for k,v in sorted(undecided.items())) or 'none'
    print(f"{os.path.basename(archive)}: {n} judged sessions (undecided: {und}); sessions ending on a triaged class: {ended_triaged} ({100*ended_triaged/n:.1f}%); ending on any divergence: {ended_div}; divergences: {len(div)} ({1000*len(div)/n:.0f} per 1000 sessions), gone past: {gone}; classes: {len(classes)} ({1000*len(classes)/n:.1f} per 1000), not excused (new or engine bug): {len(newc)}")
    return newc
res={}
for a in sys.argv[1:]:
    res[a]=measure(a)
if len(sys.argv)==3:
    a,b=sys.argv[1:]
    print("classes not excused only in", os.path.basename(b)+":")
    for c in sorted(res[b]-res[a]): print("  ", " / ".join(c))
