package search

import (
	"context"
	"errors"
	"os"
	"strconv"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"

	"github.com/svcui/svcui/internal/search"
	"github.com/svcui/svcui/internal/ui/base"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
	"github.com/svcui/svcui/internal/ui/keys"
	"github.com/svcui/svcui/internal/ui/safe"
)

// bulkLoader is the pane's bulk load of a local NDJSON file: its form, its review, and
// the job it runs through the write pipeline. It owns the messages of the load (the
// file's reading, progress, the pipeline's outcome), its panel and its key (esc cancels
// a running load).
type bulkLoader struct {
	ctx *common.Context
	req *common.Requests
	// indices is the pane's index list: its selection prefills the form, and it reloads
	// after a load.
	indices *base.List[search.IndexInfo]
	job     *bulkJob
	// form is the last bulk form, brought back when the file cannot be read.
	form interface{ Invalid(string) tea.Cmd }
}

func newBulkLoader(ctx *common.Context, req *common.Requests, indices *base.List[search.IndexInfo]) *bulkLoader {
	return &bulkLoader{ctx: ctx, req: req, indices: indices}
}

// update takes the bulk load's messages; ok is false for any other message.
func (b *bulkLoader) update(msg tea.Msg) (tea.Cmd, bool) {
	if cmd, ok := base.HandleWrite[search.BulkResult](b.ctx, b.req, msg); ok {
		return cmd, true
	}
	switch msg := msg.(type) {
	case common.Result[bulkPlan]:
		if !b.req.Current(msg.Addr) {
			return nil, true
		}
		return b.review(msg.Value, msg.Err), true
	case bulkMsg:
		return b.progressed(msg), true
	}
	return nil, false
}

// running says a load is under way.
func (b *bulkLoader) running() bool { return b.job != nil && b.job.running }

// actions are the load's keys, which act whatever has focus while it runs.
func (b *bulkLoader) actions() []paneAction {
	if !b.running() {
		return nil
	}
	return []paneAction{{keys.Action{Binding: help(b.ctx.Keys.Back, "cancel the bulk load")}, func() tea.Cmd {
		b.job.cancel()
		return common.Info("Cancelling the bulk load…")
	}}}
}

// key runs the load's action for msg; ok is false when it has none.
func (b *bulkLoader) key(msg tea.KeyMsg) (tea.Cmd, bool) {
	acts := b.actions()
	if i := keysOf(acts).Find(msg); i >= 0 {
		return acts[i].run(), true
	}
	return nil, false
}

// hide takes the finished load's panel away (a run shows its results instead).
func (b *bulkLoader) hide() {
	if b.job != nil && !b.job.running {
		b.job.visible = false
	}
}

// shown says the load's panel is drawn over the results.
func (b *bulkLoader) shown() bool { return b.job != nil && b.job.visible }

// leave stops a running load (the tab is left).
func (b *bulkLoader) leave() {
	if b.job != nil {
		b.job.cancel()
	}
}

// bulkJob is a running or finished bulk load of a local NDJSON file.
type bulkJob struct {
	path, index string
	size        int64
	docs        int
	progress    search.BulkProgress
	result      *search.BulkResult
	err         string
	running     bool
	visible     bool
	// cancel stops the load (esc): the pipeline's request stops with it.
	cancel context.CancelFunc
	stop   context.Context
	// updates carries progress from the load (inside the pipeline's command) to the
	// UI, the latest winning; the load closes it when it ends.
	updates chan search.BulkProgress
}

// bulkMsg carries the load's progress, addressed to the pane.
type bulkMsg struct {
	id       int64
	job      *bulkJob
	progress search.BulkProgress
}

func (m bulkMsg) Target() int64 { return m.id }

// bulkPlan is what the review of a bulk load says: the file as it is now and the
// target index (docs -1: it does not exist yet).
type bulkPlan struct {
	client      *search.Client // the connection the review was made on, and the load goes to
	path, index string
	size        int64
	docs        int
	indexDocs   int64
	indexSize   string
	lookupErr   string
}

// bulkStopped is a load that did not finish: what it did before it stopped.
type bulkStopped struct {
	res search.BulkResult
	err error
}

func (e bulkStopped) Error() string {
	if errors.Is(e.err, context.Canceled) {
		return "Bulk load cancelled after " + strconv.Itoa(e.res.Succeeded) + " documents"
	}
	return "Bulk load stopped after " + strconv.Itoa(e.res.Succeeded) + " documents: " + e.err.Error()
}

func (e bulkStopped) Unwrap() error { return e.err }

// bulkTimeout bounds a whole load (the pipeline's default is one request's).
const bulkTimeout = 2 * time.Hour

// validateNDJSONPath checks what can be checked without the disk (pure: it runs on
// every key); whether the file exists is found when the load starts.
func validateNDJSONPath(path string) error {
	if strings.TrimSpace(path) == "" {
		return errors.New("enter the path of a local NDJSON file")
	}
	return nil
}

func validateIndexName(s string) error {
	s = strings.TrimSpace(s)
	switch {
	case s == "":
		return errors.New("enter the target index")
	case s != strings.ToLower(s):
		return errors.New("index names are lowercase")
	case strings.ContainsAny(s, ` "*\<|,>/?`) || strings.HasPrefix(s, "_") || strings.HasPrefix(s, "-"):
		return errors.New("index names may not contain spaces or \" * \\ < | , > / ? nor start with _ or -")
	}
	return nil
}

// untilTyped is a live check that stays quiet until something was typed in the field
// (a form that opens saying "✗ enter the path" scolds before anything was done); the
// field's own Validate still refuses an empty value on submit.
func untilTyped(v *string, check func(string) error) func() error {
	typed := *v != ""
	return func() error {
		if *v != "" {
			typed = true
		}
		if !typed {
			return nil
		}
		return check(*v)
	}
}

// open asks for the file and the index (prefilled from the palette's bulk command or
// the selected index) to load into conn's service.
func (b *bulkLoader) open(conn *connection, path, index string) tea.Cmd {
	if b.ctx.ReadOnly {
		return common.Warn("Read-only mode: bulk load is disabled")
	}
	if b.running() {
		return common.Warn("A bulk load is already running (" + b.ctx.Keys.Back.Help().Key + " cancels it)")
	}
	if index == "" {
		if ix, ok := b.indices.Selected(); ok {
			index = ix.Index
		}
	}
	pathField := huh.NewInput().Title("NDJSON file").Description("one document per line, or _bulk action/document pairs").Value(&path).Validate(validateNDJSONPath)
	indexField := huh.NewInput().Title("Target index").Value(&index).Validate(validateIndexName)
	form := components.NewForm(b.ctx, "Bulk load into "+safe.Text(conn.service), func() tea.Cmd {
		return b.start(conn.client, strings.TrimSpace(path), strings.TrimSpace(index))
	}, huh.NewGroup(pathField, indexField)).
		Live(pathField, untilTyped(&path, validateNDJSONPath)).
		Live(indexField, untilTyped(&index, validateIndexName)).
		Names("file", "NDJSON file", nil)
	b.form = form
	return b.ctx.Open(form)
}

// start reads the file (in a command) for its review: how many documents and bytes,
// and what the target index holds now.
func (b *bulkLoader) start(c *search.Client, path, index string) tea.Cmd {
	log := b.ctx.Log
	return common.Fetch(b.req, kindBulk, func(ctx context.Context) (bulkPlan, error) {
		f, err := os.Open(path)
		if err != nil {
			return bulkPlan{}, fileError(path, err)
		}
		defer f.Close()
		if fi, err := f.Stat(); err == nil && fi.IsDir() {
			return bulkPlan{}, errors.New("file " + path + " is a directory, not an NDJSON file")
		}
		docs, size, err := search.CountBulkDocuments(f)
		if err != nil {
			return bulkPlan{}, errors.New("file " + path + " cannot be read: " + err.Error())
		}
		pl := bulkPlan{client: c, path: path, index: index, size: size, docs: docs, indexDocs: -1}
		ix, err := c.CatIndicesOf(ctx, index)
		switch {
		case err != nil:
			pl.lookupErr = describe(log, "looking "+index+" up", err).Error()
		case len(ix) > 0:
			pl.indexDocs, pl.indexSize = ix[0].DocsCount, ix[0].Size
		}
		return pl, nil
	})
}

// review shows what the load will do; enter sends it through the pipeline.
func (b *bulkLoader) review(pl bulkPlan, err error) tea.Cmd {
	if err != nil {
		if b.form != nil {
			return b.form.Invalid(err.Error())
		}
		return common.Error(err.Error())
	}
	target := components.Change{Field: "target index", Old: "does not exist", New: pl.index + " (created)"}
	switch {
	case pl.lookupErr != "":
		target = components.Change{Field: "target index", Old: "not looked up", New: pl.index, Note: pl.lookupErr, Warn: true}
	case pl.indexDocs >= 0:
		target = components.Change{Field: "target index", Old: thousands(pl.indexDocs) + " docs · " + pl.indexSize, New: pl.index + " (documents added)"}
	}
	changes := []components.Change{
		{Field: "file", Old: pl.path, New: "read"},
		target,
		{Field: "documents", Old: thousands(int64(pl.docs)) + " in the file", New: "indexed"},
		{Field: "bytes", Old: thousands(pl.size) + " in the file", New: "sent in batches"},
	}
	send := func() tea.Cmd { return b.send(pl) }
	return b.ctx.Open(components.NewReview(b.ctx, "Bulk load into "+safe.Text(pl.index), changes, send, nil))
}

// send runs the load as one write of the pipeline: the load itself runs in the
// pipeline's command (no goroutine of its own) and reports progress on the job's channel.
func (b *bulkLoader) send(pl bulkPlan) tea.Cmd {
	if b.running() {
		return common.Warn("A bulk load is already running (" + b.ctx.Keys.Back.Help().Key + " cancels it)")
	}
	stop, cancel := context.WithCancel(context.Background())
	job := &bulkJob{path: pl.path, index: pl.index, size: pl.size, docs: pl.docs, running: true, visible: true,
		cancel: cancel, stop: stop, updates: make(chan search.BulkProgress, 1)}
	b.job = job
	c, path, index := pl.client, pl.path, pl.index
	w := &base.Write[search.BulkResult]{Verb: base.Update, Noun: "bulk load", Name: path + " → " + index,
		Timeout: bulkTimeout, Reload: b.indices.Load,
		Send: func(ctx context.Context, _ common.Writer) (search.BulkResult, error) {
			defer close(job.updates)
			ctx, cancel := context.WithCancel(ctx)
			defer context.AfterFunc(stop, cancel)()
			defer cancel()
			f, err := os.Open(path)
			if err != nil {
				return search.BulkResult{}, fileError(path, err)
			}
			defer f.Close()
			res, err := search.BulkLoad(ctx, c, index, f, search.BulkOptions{}, job.publish)
			if err != nil {
				return res, bulkStopped{res: res, err: err}
			}
			return res, nil
		},
		Done:    func(res search.BulkResult) tea.Cmd { return b.ended(job, res, nil) },
		Refused: func(err error) tea.Cmd { return b.ended(job, search.BulkResult{}, err) },
	}
	return tea.Batch(base.SendWrite(b.ctx, b.req, w), b.wait(job),
		common.Info("Bulk loading "+path+" into "+index+"… ("+b.ctx.Keys.Back.Help().Key+" cancels)"))
}

// publish hands the UI the latest progress (it runs inside the load); a UI slower than
// the load sees only the latest.
func (j *bulkJob) publish(pr search.BulkProgress) {
	select {
	case j.updates <- pr:
	default:
		select {
		case <-j.updates:
		default:
		}
		select {
		case j.updates <- pr:
		default:
		}
	}
}

// fileError says why a file cannot be read, naming the form's field ("file").
func fileError(path string, err error) error {
	switch {
	case errors.Is(err, os.ErrNotExist):
		return errors.New("file " + path + " does not exist")
	case errors.Is(err, os.ErrPermission):
		return errors.New("file " + path + " cannot be read: permission denied")
	}
	return errors.New("file " + path + " cannot be opened: " + err.Error())
}

// wait takes the next progress report; nothing once the load has ended.
func (b *bulkLoader) wait(job *bulkJob) tea.Cmd {
	id := b.req.ID
	return func() tea.Msg {
		pr, ok := <-job.updates
		if !ok {
			return nil
		}
		return bulkMsg{id: id, job: job, progress: pr}
	}
}

// progressed shows the load's progress and waits for the next report.
func (b *bulkLoader) progressed(m bulkMsg) tea.Cmd {
	if b.job != m.job || !m.job.running {
		return nil
	}
	m.job.progress = m.progress
	return b.wait(m.job)
}

// ended shows how the load ended (the pipeline says it in the footer).
func (b *bulkLoader) ended(job *bulkJob, res search.BulkResult, err error) tea.Cmd {
	job.running = false
	job.cancel()
	var stopped bulkStopped
	if errors.As(err, &stopped) {
		res = stopped.res
	}
	job.result = &res
	job.progress = search.BulkProgress{BytesRead: res.BytesRead, DocsSent: res.Docs, DocsFailed: res.Failed, Batches: res.Batches}
	switch {
	case errors.Is(err, context.Canceled):
		job.err = "Cancelled after " + strconv.Itoa(res.Succeeded) + " documents."
	case err != nil:
		job.err = describe(b.ctx.Log, "bulk load", err).Error()
	case res.Failed > 0:
		return common.Warn("Bulk load finished: " + strconv.Itoa(res.Succeeded) + " indexed, " + strconv.Itoa(res.Failed) + " failed")
	default:
		return common.Success("Bulk load finished: " + strconv.Itoa(res.Succeeded) + " documents indexed into " + job.index)
	}
	return nil
}

func (j *bulkJob) view(ctx *common.Context, w int) string {
	st := ctx.Styles
	lines := []string{st.Title.Render("Bulk load") + " " + safe.Text(j.path) + " → " + safe.Text(j.index)}
	done := float64(j.progress.BytesRead)
	total := float64(j.size)
	if j.result != nil && j.err == "" {
		done = total
	}
	lines = append(lines, components.Gauge(ctx, done, total, min(60, w)))
	lines = append(lines, strconv.Itoa(j.progress.DocsSent)+" documents sent · "+strconv.Itoa(j.progress.DocsFailed)+" failed · "+strconv.Itoa(j.progress.Batches)+" batches")
	switch {
	case j.running:
		lines = append(lines, st.Muted.Render(ctx.Keys.Back.Help().Key+" cancels"))
	case j.err != "":
		lines = append(lines, st.Danger.Render(safe.Text(j.err)))
	case j.result != nil:
		lines = append(lines, st.OK.Render("Done: "+strconv.Itoa(j.result.Succeeded)+" indexed, "+strconv.Itoa(j.result.Failed)+" failed in "+j.result.Elapsed.Round(1e6).String()))
	}
	if j.result != nil {
		for i, f := range j.result.Failures {
			if i == 5 {
				lines = append(lines, st.Muted.Render("…"))
				break
			}
			lines = append(lines, st.Danger.Render("line "+strconv.Itoa(f.Line)+": "+safe.Text(f.Type)+": "+safe.Text(f.Reason)))
		}
		lines = append(lines, st.Muted.Render("the panel closes with the next run"))
	}
	return strings.Join(lines, "\n")
}
