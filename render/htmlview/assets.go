package htmlview

import (
	"crypto/sha256"
	"encoding/base64"
)

// script is the page's only script. It runs once the document is parsed
// (also for a file cut off while a run is still being written): it moves
// each element marked data-into into its place (a tool result under its
// call, a subagent's blocks under the call that started it, a run's line
// into the index of runs), copies each run's summary into its header, and
// shows the search box, which hides the blocks (and runs) whose text does
// not hold what is typed (or what the page's URL gives as ?q=): a block
// shows when it, a block inside it or a block it is inside holds it. Nothing of the stream is in it; the
// Content-Security-Policy allows this script by its hash and nothing else.
const script = `document.addEventListener("DOMContentLoaded",function(){` +
	`var m=document.querySelectorAll("[data-into]");` +
	`for(var i=0;i<m.length;i++){var t=document.getElementById(m[i].getAttribute("data-into"));` +
	`if(!t)continue;t.appendChild(m[i]);m[i].classList.add("nested");var w=t.closest("[hidden]");if(w)w.hidden=false;}` +
	`var r=document.querySelectorAll("article.run");for(var a=0;a<r.length;a++){` +
	`var s=r[a].querySelector("footer.summary");if(!s)continue;var k=s.querySelectorAll("[data-k]");` +
	`for(var j=0;j<k.length;j++){var d=r[a].querySelector("header [data-k="+JSON.stringify(k[j].getAttribute("data-k"))+"]");` +
	`if(d)d.textContent=k[j].textContent;}}` +
	`var q=document.getElementById("q"),n=document.getElementById("qn"),b=document.querySelectorAll("section.b");` +
	`if(q){q.parentNode.hidden=false;var f=function(){` +
	`var v=q.value.toLowerCase(),c=0;` +
	`for(var i=0;i<b.length;i++){var o=!v||b[i].textContent.toLowerCase().indexOf(v)>=0,p=b[i].parentElement.closest("section.b");` +
	`while(!o&&p){o=p.textContent.toLowerCase().indexOf(v)>=0;p=p.parentElement.closest("section.b");}` +
	`b[i].hidden=!o;if(o)c++;}` +
	`for(var a=0;a<r.length;a++)r[a].hidden=!!v&&!r[a].querySelector("section.b:not([hidden])");` +
	`n.textContent=v?c+" of "+b.length+" blocks":"";};q.addEventListener("input",f);` +
	`var u=new URLSearchParams(location.search).get("q");if(u){q.value=u;f();}}` +
	`document.documentElement.setAttribute("data-ready","1");});`

// scriptHash is the CSP source that allows script.
func scriptHash() string {
	h := sha256.Sum256([]byte(script))
	return "'sha256-" + base64.StdEncoding.EncodeToString(h[:]) + "'"
}

const style = `:root{color-scheme:light dark;--bg:#fff;--fg:#1f2328;--dim:#656d76;--line:#d0d7de;--box:#f6f8fa;` +
	`--add:#dafbe1;--addfg:#116329;--del:#ffebe9;--delfg:#82071e;--err:#cf222e;--tool:#0550ae;--think:#6e7781}` +
	`@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--dim:#8d96a0;--line:#30363d;--box:#161b22;` +
	`--add:#12261e;--addfg:#7ee787;--del:#25171c;--delfg:#ffa198;--err:#f85149;--tool:#79c0ff;--think:#8b949e}}` +
	`*{box-sizing:border-box}body{margin:0 auto;max-width:60rem;padding:1rem;background:var(--bg);color:var(--fg);` +
	`font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;overflow-wrap:anywhere}` +
	`header{border-bottom:1px solid var(--line);margin-bottom:1rem}h1{font-size:1.2rem;margin:.2rem 0}` +
	`dl.meta{display:grid;grid-template-columns:max-content 1fr;gap:0 1rem;margin:.5rem 0}dl.meta dt{color:var(--dim)}dl.meta dd{margin:0}` +
	`pre,code{font:13px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}` +
	`pre{background:var(--box);border:1px solid var(--line);border-radius:6px;padding:.5rem;overflow-x:auto;white-space:pre-wrap;margin:.3rem 0}` +
	`.b{position:relative;margin:.6rem 0;padding-left:.2rem}.b>.a{position:absolute;right:0;top:0;color:var(--dim);text-decoration:none;font-size:.8rem}` +
	`.d1,.d2,.d3,.d4,.d5,.d6{border-left:3px solid var(--line);padding-left:.6rem}.d1{margin-left:1rem}.d2{margin-left:2rem}.d3{margin-left:3rem}.d4,.d5,.d6{margin-left:4rem}` +
	`.nested{margin-left:0}.text>:first-child{margin-top:0}.text>:last-child{margin-bottom:0}.text table{border-collapse:collapse}.text td,.text th{border:1px solid var(--line);padding:.2rem .5rem}` +
	`.text blockquote{margin:.3rem 0;padding-left:.8rem;border-left:3px solid var(--line);color:var(--dim)}.text code{background:var(--box);border-radius:4px;padding:0 .2rem}.text pre code{background:none;padding:0}` +
	`#search{position:sticky;top:0;background:var(--bg);padding:.4rem 0;z-index:1}#q{width:min(30rem,100%);font:inherit;padding:.2rem .4rem}` +
	`#index table{border-collapse:collapse;width:100%;font-size:.9rem}#index th,#index td{text-align:left;border-bottom:1px solid var(--line);padding:.2rem .5rem}` +
	`.index-line{font-size:.85rem;color:var(--dim)}.index-line td{padding:0 .4rem}article.run+article.run,.index-line+article.run{border-top:2px solid var(--line);margin-top:1.5rem}.dim,.notice,.turn{color:var(--dim);font-size:.9rem}` +
	`.thinking{color:var(--think)}.thinking pre{font-style:italic}summary{cursor:pointer}` +
	`.call>details>summary .tool{color:var(--tool);font-weight:600}.call{border:1px solid var(--line);border-radius:6px;padding:.4rem .6rem}` +
	`.fields{display:grid;grid-template-columns:max-content 1fr;gap:.1rem .8rem;margin:.3rem 0}.fields dt{color:var(--dim)}.fields dd{margin:0;white-space:pre-wrap}` +
	`.diff span{display:inline-block;min-width:100%}.diff .add{background:var(--add);color:var(--addfg)}.diff .del{background:var(--del);color:var(--delfg)}.diff .hunk{color:var(--dim)}` +
	`.todo{list-style:none;padding-left:.2rem}.todo .in_progress{font-weight:600}.todo .completed{color:var(--dim);text-decoration:line-through}` +
	`.status{color:var(--dim)}.failed .status,.error,.err{color:var(--err)}.error{border-left:3px solid var(--err);padding-left:.6rem}` +
	`.trunc{color:var(--err);font-weight:600}.notes{font-size:.9rem;color:var(--dim)}img{max-width:100%;height:auto;border:1px solid var(--line)}` +
	`.subs{margin:.4rem 0;border-left:3px solid var(--line);padding-left:.6rem}.prompt{border-left:3px solid var(--tool);padding-left:.6rem;white-space:pre-wrap}` +
	`footer{border-top:1px solid var(--line);margin-top:1.5rem}a{color:var(--tool)}` +
	`@media (max-width:40rem){body{padding:.5rem}.d1,.d2,.d3,.d4,.d5,.d6{margin-left:.4rem}dl.meta,.fields{grid-template-columns:1fr}}`
