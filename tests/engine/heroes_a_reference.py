# An independent enumerator of full turns for the heroes Achilles, Adonis, Bellerophon and
# Heracles against no power (2 players, depths 1-2), written from the cards and the rulings
# HA1-HA11 (docs/rulings.md), with no engine code: the reference for the pinned counts of
# power_heroes_a_perft_test.cpp. Perft as the engine defines it: a full turn counts 1 at the
# last depth; a game that ended (a win, a player without a turn) counts nothing deeper.
#   python3 tests/engine/heroes_a_reference.py <rows> <A workers> <B workers> <power> <depth>
#   python3 tests/engine/heroes_a_reference.py 00000/00000/00000/00000/00000 B2,D4 B4,D2 Heracles 1
#   python3 tests/engine/heroes_a_reference.py atalanta-pocket
# Atalanta's paths are counted on a flat walled pocket only (atalanta_pocket below).
import sys, itertools
def nb(s):
    f,r=s%5,s//5
    return [ (r+dr)*5+f+df for dr in (-1,0,1) for df in (-1,0,1) if (dr or df) and 0<=f+df<5 and 0<=r+dr<5]
NB=[nb(s) for s in range(25)]
def parse(rows):
    h=[0]*25; d=[False]*25
    for i,row in enumerate(rows.split('/')):
        r=4-i; f=0; j=0
        while j<len(row):
            h[r*5+f]=int(row[j]); j+=1
            if j<len(row) and row[j]=='D': d[r*5+f]=True; j+=1
            f+=1
    return h,d
def sq(n): return (ord(n[0])-65)+5*(int(n[1])-1)
# state: (h tuple, d tuple, workers tuple(A0,A1,B0,B1), mover side, spent tuple(A,B), charm)
def free(st,s):
    h,d,w=st[0],st[1],st[2]
    return not d[s] and s not in w
def plain_turns(st, side, power):
    """yield (kind, newstate) for each full turn; kind 'win' or 'turn'."""
    h,d,w,mv,spent,charm=st
    ws=[0,1] if side==0 else [2,3]
    unused = not spent[side]
    res=[]
    def after_move(h2,d2,w2,wi,frm,to,sp):
        # win?
        if h2[to]==3 and h2[frm]<3: res.append(('win',None)); return
        for b in NB[to]:
            if d2[b] or b in w2: continue
            h3=list(h2); d3=list(d2)
            if h3[b]==3: d3[b]=True
            else: h3[b]+=1
            base=(tuple(h3),tuple(d3),w2,1-side,sp,charm)
            end_of_turn(base,sp)
    def end_of_turn(base,sp):
        h3,d3,w2=base[0],base[1],base[2]
        if power=='Heracles' and not sp[side]:
            cands=sorted({t for x in ws for t in NB[w2[x]] if not d3[t] and t not in w2})
            for k in range(len(cands)+1):
                for sub in itertools.combinations(cands,k):
                    d4=list(d3)
                    for t in sub: d4[t]=True
                    sp2=list(sp); 
                    if k: sp2[side]=True
                    res.append(('turn',(h3,tuple(d4),w2,1-side,tuple(sp2),charm)))
        elif power=='Adonis' and not sp[side]:
            res.append(('turn',base))
            for o in ([2,3] if side==0 else [0,1]):
                sp2=list(sp); sp2[side]=True
                res.append(('turn',(h3,d3,w2,1-side,tuple(sp2),o)))
        else:
            res.append(('turn',base))
    def moves(h2,d2,w2,wi,sp,climb):
        frm=w2[wi]
        for to in NB[frm]:
            if d2[to] or to in w2: continue
            up=h2[to]-h2[frm]
            ok = up<=1 or (climb and up==2)
            if not ok: continue
            sp2=sp
            if up==2: sp2=tuple(True if i==side else v for i,v in enumerate(sp))
            w3=list(w2); w3[wi]=to
            after_move(h2,d2,tuple(w3),wi,frm,to,sp2)
    for wi in ws:
        moves(h,d,w,wi,spent,power=='Bellerophon' and unused)
    if power=='Achilles' and unused:
        for wi in ws:
            frm=w[wi]
            for b in NB[frm]:
                if d[b] or b in w: continue
                h2=list(h); d2=list(d)
                if h2[b]==3: d2[b]=True
                else: h2[b]+=1
                sp=tuple(True if i==side else v for i,v in enumerate(spent))
                moves(tuple(h2),tuple(d2),w,wi,sp,False)
    return res
def demand_ok(st_after, side_adonis, charm):
    w=st_after[2]
    mine=[0,1] if side_adonis==0 else [2,3]
    return any(w[x] in NB[w[charm]] for x in mine)
def turns(st, powers):
    side=st[3]
    res=plain_turns(st, side, powers[side])
    # Adonis' demand on this side?
    other=1-side
    if powers[other]=='Adonis' and st[5] is not None:
        good=[r for r in res if r[0]=='turn' and demand_ok(r[1],other,st[5])]
        # a win counts as a turn end only if demands met (win positions: check the move's result) -> recompute wins
        if good or any_win_meeting(st,powers):
            res=[r for r in res if (r[0]=='turn' and demand_ok(r[1],other,st[5]))] + win_meeting(st,powers)
    out=[]
    for k,s2 in res:
        if k=='turn' and powers[other]=='Adonis' and st[5] is not None and s2 is not None:
            s2=(s2[0],s2[1],s2[2],s2[3],s2[4],None)  # forgotten after that turn
        out.append((k,s2))
    return out
def win_moves(st,powers):
    h,d,w,side=st[0],st[1],st[2],st[3]
    ws=[0,1] if side==0 else [2,3]
    r=[]
    for wi in ws:
        for to in NB[w[wi]]:
            if d[to] or to in w: continue
            if h[to]-h[w[wi]]<=1 and h[to]==3 and h[w[wi]]<3:
                w2=list(w); w2[wi]=to; r.append(tuple(w2))
    return r
def win_meeting(st,powers):
    return [('win',None) for w2 in win_moves(st,powers) if demand_ok((None,None,w2),1-st[3],st[5])]
def any_win_meeting(st,powers): return bool(win_meeting(st,powers))
def has_turn(st,powers): return len(turns(st,powers))>0
def perft(st,powers,depth):
    if depth==0: return 1
    n=0
    for k,s2 in turns(st,powers):
        if depth==1: n+=1
        elif k=='win': continue
        else:
            # opponent with no turn loses at turn start: game over, counts nothing deeper
            if not has_turn(s2,powers): continue
            n+=perft(s2,powers,depth-1)
    return n
def start(rows,wa,wb,spent=(False,False),charm=None):
    h,d=parse(rows)
    return (tuple(h),tuple(d),tuple(sq(x) for x in wa+wb),0,spent,charm)
def atalanta_pocket():
    """Atalanta's worker on A1 of a flat pocket (A1-E1, A2-C2 free, the rest domes or walled-in
    workers): a first move, then any walk whose squares from the second move on never repeat
    (the loop guard's set is cleared when the record changes at the second move), each path
    ending in a build on a free neighbour."""
    free={sq(x) for x in "A1 B1 C1 D1 E1 A2 B2 C2".split()}
    builds=lambda pos: sum(1 for b in NB[pos] if b in free)
    total=0
    def walk(pos, seen):
        nonlocal total
        total += builds(pos)
        for n in NB[pos]:
            if n in free and n not in seen: walk(n, seen|{n})
    for x1 in NB[sq("A1")]:
        if x1 not in free: continue
        total += builds(x1)
        for x2 in NB[x1]:
            if x2 in free: walk(x2, {x2})
    return total
if __name__=='__main__' and sys.argv[1:]==['atalanta-pocket']:
    print(atalanta_pocket())
elif __name__=='__main__':
    rows,wa,wb,p,depth=sys.argv[1],sys.argv[2].split(','),sys.argv[3].split(','),sys.argv[4],int(sys.argv[5])
    print(perft(start(rows,wa,wb),(p,'-'),depth))
