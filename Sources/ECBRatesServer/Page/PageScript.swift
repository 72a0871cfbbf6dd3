/// The page's one script, of our own: it saves a form's reload. On a form's submit it asks the
/// server for the same page the form would have loaded (`GET /?…`, the same question and
/// renderer: the script computes nothing), puts its `<main>` in place of this one, and moves the
/// focus to the answer. Without it, or when anything fails, the form loads the page as usual.
enum PageScript {
    /// The JavaScript.
    static let javaScript = """
        "use strict";
        // ecbrates: every answer on this page is written by the server; this only saves a reload.
        // Whether this page shows an answer the script fetched (Back must then load the page).
        let answered = false;
        document.addEventListener("submit", async (event) => {
          const form = event.target;
          if (!(form instanceof HTMLFormElement) || !form.dataset.section || event.defaultPrevented) return;
          event.preventDefault();
          const query = new URLSearchParams();
          for (const [name, value] of new FormData(form)) if (value !== "") query.append(name, value);
          const text = query.toString();
          const url = "/" + (text ? "?" + text : "");
          const section = form.dataset.section;
          try {
            const response = await fetch(url, { headers: { Accept: "text/html" } });
            const page = new DOMParser().parseFromString(await response.text(), "text/html");
            const main = page.querySelector("main");
            if (!main || !page.getElementById(section)) throw new Error("no " + section + " in the answer");
            document.querySelector("main").replaceWith(document.adoptNode(main));
            document.title = page.title;
            history.pushState({ ecbrates: true }, "", url + "#" + section);
            answered = true;
            const answer = document.querySelector("#" + section + " [aria-live]");
            if (answer) { answer.tabIndex = -1; answer.focus(); }
          } catch (error) {
            form.submit();
          }
        });
        // Back or Forward across an answer the script fetched loads that address's page; within
        // the page (a link to a section) it does nothing.
        window.addEventListener("popstate", (event) => {
          if (answered || (event.state && event.state.ecbrates)) location.reload();
        });

        """
}
